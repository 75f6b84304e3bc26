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
            <Link href="/overview" data-testid="nav-overview">
              Overview
            </Link>
            <Link href="/compare" data-testid="nav-compare">
              Compare
            </Link>
            <Link href="/runs" data-testid="nav-runs">
              Runs
            </Link>
            {showCaseStudies ? (
              <Link href="/case-studies" data-testid="nav-case-studies">
                Case studies
              </Link>
            ) : null}
            <Link href="/benchmarks" data-testid="nav-benchmarks">
              Benchmarks
            </Link>
            <Link href="/jobs" data-testid="nav-jobs">
              Jobs
            </Link>
            {user && (user.role === "annotator" || user.role === "admin") ? (
              <Link href="/annotate" data-testid="nav-annotate">
                Annotate
              </Link>
            ) : null}
            {user?.role === "admin" ? (
              <Link href="/agreement" data-testid="nav-agreement">
                Agreement
              </Link>
            ) : null}
          </nav>
          <UserMenu user={user} signOutAction={signOutAction} />
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
