/**
 * The address a sign-in came from, for the per-client throttle (login-throttle.ts).
 *
 * Next's server copies the socket address into `x-forwarded-for` only when the request has no
 * such header (`??=` in next/dist/server/base-server.js, 16.4): with no proxy in front, that
 * header is whatever the client chose to send, and a per-client limit keyed on it could be
 * dodged by sending a new value with every guess. So `installPeerAddressHeader` (called once
 * from instrumentation.ts, in the server process) writes the socket's own address into
 * `x-studio-peer` on every incoming request, over anything a client sent under that name.
 *
 * `x-forwarded-for` is believed only when STUDIO_TRUSTED_PROXIES says how many proxies of ours
 * stand in front: each appends the address it saw, so the client is the entry that many places
 * from the right. Without the peer header (it was not installed), the address is unknown: the
 * throttle then gives no client the clean-record pass.
 */
import http from "node:http";
import https from "node:https";
import { z } from "zod";

export const PEER_HEADER = "x-studio-peer";

/** 0 (no proxy, the default: `npm start` binds 127.0.0.1) up to a chain of 10. */
export const TrustedProxiesSchema = z.coerce.number().int().min(0).max(10).default(0);

const holder = globalThis as typeof globalThis & { __studioPeerHeader?: boolean };

/** Makes every http(s) server of this process stamp `x-studio-peer` with the socket address. Idempotent. */
export function installPeerAddressHeader(): void {
  if (holder.__studioPeerHeader) return;
  for (const Server of [http.Server, https.Server]) {
    // Node's typed overloads per event do not matter here: every event passes through unchanged.
    const proto = Server.prototype as unknown as { emit: (event: string | symbol, ...args: unknown[]) => boolean };
    const emit = proto.emit;
    proto.emit = function (this: unknown, event, ...args) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        request.headers[PEER_HEADER] = request.socket.remoteAddress ?? "";
      }
      return emit.call(this, event, ...args);
    };
  }
  holder.__studioPeerHeader = true;
}

export function peerAddressHeaderInstalled(): boolean {
  return holder.__studioPeerHeader === true;
}

/** The client's address from the request headers, or null when it cannot be told. */
export function clientAddressOf(
  header: (name: string) => string | null,
  { trustedProxies, peerHeader }: { trustedProxies: number; peerHeader: boolean },
): string | null {
  const peer = peerHeader ? normalize(header(PEER_HEADER)) : null;
  if (trustedProxies === 0) return peer;
  const chain = (header("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Fewer entries than proxies: the request skipped part of the chain; the leftmost is the best guess.
  const claimed = chain.length === 0 ? null : chain[Math.max(0, chain.length - trustedProxies)];
  return normalize(claimed ?? null) ?? peer;
}

/**
 * `::ffff:127.0.0.1` and `127.0.0.1` are one client; anything that is not an address is none. An
 * IPv6 client is its /64: one host commonly holds a whole /64, so per-address counting would give
 * it 2^64 fresh "clean" clients.
 */
function normalize(address: string | null): string | null {
  if (!address) return null;
  const plain = address
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  if (!/^[0-9a-f.:]{2,45}$/.test(plain)) return null;
  return plain.includes(":") ? ipv6Prefix64(plain) : plain;
}

/** `2001:db8:1:2:a::1` -> `2001:db8:1:2::/64`; null when it is not an IPv6 address. */
function ipv6Prefix64(address: string): string | null {
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return `${all
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
