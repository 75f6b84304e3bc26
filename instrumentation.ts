/**
 * Runs once when the Next server process starts, before it answers a request.
 * The sign-in throttle needs each client's socket address, which Next does not hand to server
 * actions unforgeably (lib/auth/client-address.ts says why): stamp it on every request here.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddressHeader } = await import("@/lib/auth/client-address");
  installPeerAddressHeader();
}
