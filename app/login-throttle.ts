/**
 * The web server's one sign-in throttle (server-only; not a route): in memory, per process, kept
 * across dev-mode reloads on globalThis. Unlocks come from the Accounts page directly and from
 * `npm run users -- unlock` through a file beside the database (lib/auth/unlock-requests.ts),
 * looked at whenever the throttle is used.
 */
import "server-only";
import { headers } from "next/headers";
import { databasePathFromEnv } from "@/db/client";
import { clientAddressOf, peerAddressHeaderInstalled, TrustedProxiesSchema } from "@/lib/auth/client-address";
import { LoginThrottle, type AccountThrottleStatus } from "@/lib/auth/login-throttle";
import { UnlockInbox, unlockRequestsPath } from "@/lib/auth/unlock-requests";
import { AppError } from "@/lib/errors/app-error";

const holder = globalThis as typeof globalThis & {
  __studioLoginThrottle?: { throttle: LoginThrottle; inbox: UnlockInbox };
};

/** The throttle, with every unlock requested from a shell since the last call applied. */
export function loginThrottle(): LoginThrottle {
  holder.__studioLoginThrottle ??= {
    throttle: new LoginThrottle(),
    inbox: new UnlockInbox(unlockRequestsPath(databasePathFromEnv()), Date.now()),
  };
  const { throttle, inbox } = holder.__studioLoginThrottle;
  inbox.poll((username) => throttle.unlock(username));
  return throttle;
}

/** Each account with its failed sign-ins now (null: none), for the Accounts page. */
export function withSignInStatus<U extends { username: string }>(
  users: readonly U[],
): (U & { signIn: AccountThrottleStatus | null })[] {
  const throttle = loginThrottle();
  const now = Date.now();
  return users.map((user) => ({ ...user, signIn: throttle.statusOf(user.username, now) }));
}

/** STUDIO_TRUSTED_PROXIES, checked: a bad value is a configuration error, never "trust nothing" in silence. */
function trustedProxies(): number {
  const parsed = TrustedProxiesSchema.safeParse(process.env.STUDIO_TRUSTED_PROXIES || undefined);
  if (!parsed.success)
    throw new AppError("INVALID_INPUT", "STUDIO_TRUSTED_PROXIES must be a whole number from 0 to 10");
  return parsed.data;
}

/** This request's client address (lib/auth/client-address.ts), or null when it cannot be told. */
export async function requestClientAddress(): Promise<string | null> {
  const requestHeaders = await headers();
  return clientAddressOf((name) => requestHeaders.get(name), {
    trustedProxies: trustedProxies(),
    peerHeader: peerAddressHeaderInstalled(),
  });
}
