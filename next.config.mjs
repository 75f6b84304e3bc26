/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded from node_modules at run time, never bundled: better-sqlite3 is a native addon, and
  // web-tree-sitter finds its own .wasm beside its module file (the run page parses Python).
  serverExternalPackages: ["better-sqlite3", "web-tree-sitter"],
  // The dashboard is served on localhost by the demo; no telemetry, no remote images.
  images: { unoptimized: true },
  poweredByHeader: false,
  async headers() {
    return [
      {
        // Everything, static files included. Pages also get a Content-Security-Policy with a
        // per-request nonce from proxy.ts (lib/security/content-security-policy.ts).
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
        ],
      },
      {
        // Routes answer JSON, CSV and file contents: nothing in them may load or run anything.
        source: "/api/:path*",
        headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }],
      },
    ];
  },
};

export default nextConfig;
