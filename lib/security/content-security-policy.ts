/**
 * The Content-Security-Policy of every page (proxy.ts sends it with a fresh nonce per request;
 * Next reads the nonce back from the request's policy and puts it on each script it renders).
 *
 * - script-src: only scripts carrying this response's nonce, and what they load
 *   ('strict-dynamic': the Monaco and chart chunks that next/dynamic inserts). No inline script
 *   an injected string could bring; 'unsafe-eval' only under `next dev`, whose React reads
 *   error stacks with eval (Next's CSP guide).
 * - style-src 'unsafe-inline': Monaco writes its theme and layout into <style> elements it
 *   creates at run time, and server-rendered charts carry style attributes; neither can take a
 *   nonce (and a nonce in style-src would switch 'unsafe-inline' off). Styles cannot run code.
 * - worker-src 'self' blob:: Monaco's editor worker is a same-origin module (components/code).
 * - img-src data: blob:: the chart download rasterises its SVG from a data: URL.
 * - frame-ancestors 'none' (with X-Frame-Options DENY for older browsers): no page is framed.
 * - No upgrade-insecure-requests: the app is served over plain http on 127.0.0.1.
 */
export function contentSecurityPolicy({ nonce, dev }: { nonce: string; dev: boolean }): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "worker-src": ["'self'", "blob:"],
    "connect-src": ["'self'", ...(dev ? ["ws:"] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
