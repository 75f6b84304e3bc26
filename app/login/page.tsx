import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { LoginForm } from "@/components/accounts/login-form";
import styles from "@/components/accounts/accounts.module.css";
import { safeNextPath } from "@/lib/auth/schema";
import { firstValues, type SearchParams } from "@/lib/dashboard/params";
import { currentUser } from "../session";
import { signInAction, signOutAction } from "./actions";

export const metadata: Metadata = { title: "Sign in · Misbehavior Studio" };

/**
 * Sign in. Accounts are made by an admin (no sign-up). `?next=` is where to go afterwards (a path
 * on this site); `?reason=role` says the signed-in account cannot open that page.
 */
export default async function LoginPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const params = firstValues(await searchParams);
  const next = safeNextPath(params.next);
  const user = await currentUser();
  const deniedRole = params.reason === "role" && user !== null;
  return (
    <section className={styles.card} aria-labelledby="login-title">
      <h1 id="login-title">Sign in</h1>
      {params.signed_out === "1" && !user ? (
        <p className={styles.notice} role="status" data-testid="signed-out-notice">
          You are signed out.
        </p>
      ) : null}
      {deniedRole ? (
        <p className={styles.notice} role="alert" data-testid="role-denied">
          You are signed in as <strong>{user.displayName}</strong> ({user.role}), which cannot open <code>{next}</code>.
          Sign in with an account that can.
        </p>
      ) : user ? (
        <div className={styles.notice} data-testid="already-signed-in">
          You are signed in as <strong>{user.displayName}</strong> ({user.role}). <Link href={next}>Continue</Link>, or
          sign in as someone else below.
        </div>
      ) : null}
      <LoginForm action={signInAction} next={next} />
      <p className="muted">
        Accounts are created by an admin (Accounts page, or <code>npm run users -- create</code>). Ask yours for one.
      </p>
      {user ? (
        <form action={signOutAction}>
          <button type="submit" className="link-button" data-testid="login-sign-out">
            Sign out
          </button>
        </form>
      ) : null}
    </section>
  );
}
