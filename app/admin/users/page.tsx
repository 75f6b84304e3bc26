import type { Metadata } from "next";
import { connection } from "next/server";
import { getAppDb } from "@/db/app-db";
import { listUsers } from "@/db/queries/users";
import styles from "@/components/accounts/accounts.module.css";
import { CreateUserForm } from "@/components/accounts/create-user-form";
import { ResetPasswordForm } from "@/components/accounts/reset-password-form";
import { UserTable } from "@/components/accounts/user-table";
import { EmptyState } from "@/components/ui/states";
import { withSignInStatus } from "../../login-throttle";
import { requireUser } from "../../session";
import { createUserAction, resetPasswordAction, unlockSignInAction } from "./actions";

export const metadata: Metadata = { title: "Accounts · Misbehavior Studio" };

/** Admins only: every account (with its failed sign-ins, to unlock), a form to create one, a form to reset a password. */
export default async function UsersPage() {
  await connection();
  const me = await requireUser(["admin"], "/admin/users");
  const users = withSignInStatus(listUsers(getAppDb()));
  return (
    <section>
      <h1>Accounts</h1>
      <p className="muted">
        Admins create every account (there is no sign-up): annotators label the agreement sets given to them, viewers
        read, admins also queue jobs and manage accounts. The same is possible from a shell with{" "}
        <code>npm run users</code>.
      </p>
      <div className={styles.forms}>
        <section aria-labelledby="create-user-title">
          <h2 id="create-user-title">Create an account</h2>
          <CreateUserForm action={createUserAction} />
        </section>
        <section aria-labelledby="reset-password-title">
          <h2 id="reset-password-title">Reset a password</h2>
          <ResetPasswordForm
            action={resetPasswordAction}
            users={users.map(({ id, username, displayName }) => ({ id, username, displayName }))}
          />
        </section>
      </div>
      {users.length === 0 ? (
        <EmptyState title="No accounts yet" testId="users-empty">
          Create the first one above.
        </EmptyState>
      ) : (
        <UserTable users={users} currentUserId={me.id} unlockAction={unlockSignInAction} />
      )}
    </section>
  );
}
