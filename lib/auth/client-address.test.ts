import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clientAddressOf,
  installPeerAddressHeader,
  PEER_HEADER,
  peerAddressHeaderInstalled,
  TrustedProxiesSchema,
} from "./client-address";

const headersOf = (values: Record<string, string>) => (name: string) => values[name] ?? null;

describe("client address", () => {
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    installPeerAddressHeader();
    installPeerAddressHeader(); // idempotent: one stamp, one emit wrapper
    // A real server answering with the headers it received, as Next's handler would read them.
    server = http.createServer((request, response) => response.end(JSON.stringify(request.headers)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** One GET from `localAddress` with `headers`; the headers the server saw. */
  const seen = (localAddress: string, headers: Record<string, string>) =>
    new Promise<Record<string, string>>((resolve, reject) => {
      const request = http.get({ host: "127.0.0.1", port, localAddress, headers }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve(JSON.parse(body) as Record<string, string>));
      });
      request.on("error", reject);
    });

  it("stamps the socket address over a forged peer header; a forged x-forwarded-for changes nothing", async () => {
    expect(peerAddressHeaderInstalled()).toBe(true);
    const forged = { [PEER_HEADER]: "10.9.9.9", "x-forwarded-for": "10.8.8.8" };
    const fromOne = await seen("127.0.0.1", forged);
    const fromTwo = await seen("127.0.0.2", forged);
    expect(fromOne[PEER_HEADER]).toBe("127.0.0.1");
    expect(fromTwo[PEER_HEADER]).toBe("127.0.0.2");
    const options = { trustedProxies: 0, peerHeader: true };
    expect(clientAddressOf(headersOf(fromOne), options)).toBe("127.0.0.1");
    expect(clientAddressOf(headersOf(fromTwo), options)).toBe("127.0.0.2");
  });

  it("believes x-forwarded-for only as far as the trusted proxies reach", () => {
    const headers = headersOf({ "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2", [PEER_HEADER]: "10.0.0.1" });
    expect(clientAddressOf(headers, { trustedProxies: 0, peerHeader: true })).toBe("10.0.0.1");
    expect(clientAddressOf(headers, { trustedProxies: 1, peerHeader: true })).toBe("10.0.0.2");
    expect(clientAddressOf(headers, { trustedProxies: 2, peerHeader: true })).toBe("203.0.113.7");
    expect(clientAddressOf(headers, { trustedProxies: 5, peerHeader: true })).toBe("6.6.6.6");
    // A proxy is trusted but the request came around it: the socket address.
    expect(clientAddressOf(headersOf({ [PEER_HEADER]: "10.0.0.1" }), { trustedProxies: 1, peerHeader: true })).toBe(
      "10.0.0.1",
    );
  });

  it("is unknown without the peer header, and for anything that is not an address", () => {
    const headers = headersOf({ [PEER_HEADER]: "10.0.0.1", "x-forwarded-for": "<script>" });
    expect(clientAddressOf(headers, { trustedProxies: 0, peerHeader: false })).toBeNull();
    expect(clientAddressOf(headers, { trustedProxies: 1, peerHeader: false })).toBeNull();
    expect(
      clientAddressOf(headersOf({ [PEER_HEADER]: "::ffff:127.0.0.1" }), { trustedProxies: 0, peerHeader: true }),
    ).toBe("127.0.0.1");
  });

  it("counts an IPv6 client by its /64, so one host cannot be a fresh client per address", () => {
    const of = (address: string) =>
      clientAddressOf(headersOf({ [PEER_HEADER]: address }), { trustedProxies: 0, peerHeader: true });
    expect(of("2001:db8:1:2:a:b:c:d")).toBe("2001:db8:1:2::/64");
    expect(of("2001:0db8:0001:0002::1")).toBe("2001:db8:1:2::/64");
    expect(of("2001:db8::5")).toBe("2001:db8:0:0::/64");
    expect(of("::1")).toBe("0:0:0:0::/64");
    expect(of("2001:db8:1:2:ffff::")).toBe("2001:db8:1:2::/64");
    for (const bad of ["1::2::3", "1:2:3", "12345::1"]) expect(of(bad)).toBeNull();
  });

  it("reads STUDIO_TRUSTED_PROXIES as a small count", () => {
    expect(TrustedProxiesSchema.parse(undefined)).toBe(0);
    expect(TrustedProxiesSchema.parse("1")).toBe(1);
    for (const bad of ["-1", "yes", "11", "1.5"]) expect(TrustedProxiesSchema.safeParse(bad).success).toBe(false);
  });
});
