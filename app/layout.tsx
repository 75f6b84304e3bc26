import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";
import { UserMenu } from "@/components/accounts/user-menu";
import { signOutAction } from "./login/actions";
import { canRead, currentUser } from "./session";

export const metadata: Metadata = {
  title: "Misbehavior Studio",
  description: "Measure, explain and reduce boundary violations of autonomous coding agents.",
};

interface NavContext {
  role: string | null;
  showCaseStudies: boolean;
}

/** The top bar's links, in order; each shown only to whom its page would not refuse. */
const NAV: { href: string; label: string; shown: (c: NavContext) => boolean }[] = [
  { href: "/overview", label: "Overview", shown: () => true },
  { href: "/compare", label: "Compare", shown: () => true },
  { href: "/ablation", label: "Ablation", shown: () => true },
  { href: "/runs", label: "Runs", shown: () => true },
  { href: "/case-studies", label: "Case studies", shown: (c) => c.showCaseStudies },
  { href: "/benchmarks", label: "Benchmarks", shown: () => true },
  { href: "/jobs", label: "Jobs", shown: () => true },
  { href: "/annotate", label: "Annotate", shown: (c) => c.role === "annotator" || c.role === "admin" },
  { href: "/agreement", label: "Agreement", shown: (c) => c.role === "admin" },
];

export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const user = await currentUser();
  // Admin-only once a study is active (lib/auth/access.ts): no link to a page that would refuse.
  const showCaseStudies = await canRead("case-studies");
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/" className="brand">
            Misbehavior Studio
          </Link>
          <nav aria-label="Main">
            {NAV.filter((item) => item.shown({ role: user?.role ?? null, showCaseStudies })).map((item) => (
              <Link key={item.href} href={item.href} data-testid={`nav-${item.href.slice(1)}`}>
                {item.label}
              </Link>
            ))}
          </nav>
          <UserMenu user={user} signOutAction={signOutAction} />
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
