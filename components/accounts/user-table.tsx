import type { Role } from "@/lib/auth/schema";
import styles from "./accounts.module.css";
import { UnlockSignInButton, type UnlockSignInAction } from "./unlock-sign-in-button";

export interface UserRowView {
  id: number;
  username: string;
  displayName: string;
  role: Role;
  createdAt: string;
  activeSessions: number;
  /** Recent failed sign-ins and the backoff they impose now; null when there are none. */
  signIn: { failures: number; retryAfterMs: number } | null;
}

/** The accounts list: who, which role, since when, signed in on how many browsers, failing to sign in. */
export function UserTable({
  users,
  currentUserId,
  unlockAction,
}: {
  users: UserRowView[];
  currentUserId: number;
  unlockAction: UnlockSignInAction;
}) {
  return (
    <div className="table-wrap">
      <table className="grid" data-testid="users-table">
        <caption className={`muted ${styles.caption}`}>
          {users.length} account{users.length === 1 ? "" : "s"}
        </caption>
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Display name</th>
            <th scope="col">Role</th>
            <th scope="col" className="num">
              Open sessions
            </th>
            <th scope="col">Created</th>
            <th scope="col">Failed sign-ins</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} data-testid="user-row" data-username={user.username}>
              <td>
                <code>{user.username}</code>
                {user.id === currentUserId ? <span className="badge">you</span> : null}
              </td>
              <td>{user.displayName}</td>
              <td data-testid="user-role">{user.role}</td>
              <td className="num" data-testid="user-sessions">
                {user.activeSessions}
              </td>
              <td>
                <time dateTime={user.createdAt}>{user.createdAt.slice(0, 16).replace("T", " ")} UTC</time>
              </td>
              <td data-testid="user-sign-in-failures">
                {user.signIn ? (
                  <>
                    {user.signIn.failures}
                    {user.signIn.retryAfterMs > 0
                      ? ` (failing clients wait ${Math.ceil(user.signIn.retryAfterMs / 1000)} s)`
                      : ""}
                    <UnlockSignInButton action={unlockAction} userId={user.id} />
                  </>
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
