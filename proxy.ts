/**
 * Every page gets a Content-Security-Policy with a fresh nonce (lib/security): set on the request
 * too, where Next reads the nonce to put on the scripts it renders. Pages render per request
 * (the root layout reads the session cookie), so no page is served without its nonce.
 * The other security headers, and a locked-down policy for /api, come from next.config.mjs.
 */
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce } from "@/lib/security/content-security-policy";

export function proxy(request: NextRequest): NextResponse {
  const policy = contentSecurityPolicy({ nonce: newNonce(), dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  matcher: [
    {
      // Not the routes (their bodies can be large uploads, their policy is static), not the
      // build's static files, not prefetches (RSC payloads, not documents).
      source: "/((?!api/|_next/static/|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
