import type { Metadata } from "next";
import Link from "next/link";
import "./globals.css";

export const metadata: Metadata = {
  title: "Misbehavior Studio",
  description: "Measure, explain and reduce boundary violations of autonomous coding agents.",
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
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
            <Link href="/case-studies" data-testid="nav-case-studies">
              Case studies
            </Link>
            <Link href="/benchmarks" data-testid="nav-benchmarks">
              Benchmarks
            </Link>
            <Link href="/jobs" data-testid="nav-jobs">
              Jobs
            </Link>
          </nav>
        </header>
        <main className="page">{children}</main>
      </body>
    </html>
  );
}
