import type { Role } from "@/lib/auth/schema";
import styles from "./accounts.module.css";

export interface UserRowView {
  id: number;
  username: string;
  displayName: string;
  role: Role;
  createdAt: string;
  activeSessions: number;
}

/** The accounts list: who, which role, since when, signed in on how many browsers. */
export function UserTable({ users, currentUserId }: { users: UserRowView[]; currentUserId: number }) {
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
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
