import Link from "next/link";
import type { Role } from "@/lib/auth/schema";
import styles from "./accounts.module.css";

/** The top bar's right end: who is signed in and a Sign out button, or a Sign in link. */
export function UserMenu({
  user,
  signOutAction,
}: {
  user: { displayName: string; username: string; role: Role } | null;
  signOutAction: () => Promise<void>;
}) {
  if (!user) {
    return (
      <div className={styles.userMenu}>
        <Link href="/login" data-testid="sign-in-link">
          Sign in
        </Link>
      </div>
    );
  }
  return (
    <div className={styles.userMenu} data-testid="user-menu">
      {user.role === "admin" ? (
        <Link href="/admin/users" data-testid="nav-accounts">
          Accounts
        </Link>
      ) : null}
      <span title={user.username}>
        <span className={styles.userName} data-testid="current-user">
          {user.displayName}
        </span>{" "}
        <span className={styles.userRole} data-testid="current-role">
          {user.role}
        </span>
      </span>
      <form action={signOutAction}>
        <button type="submit" className={styles.signOut} data-testid="sign-out">
          Sign out
        </button>
      </form>
    </div>
  );
}
