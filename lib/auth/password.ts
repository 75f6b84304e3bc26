/**
 * Password hashing with scrypt, a memory-hard function (node:crypto, no native addon).
 * Stored as `scrypt$N$r$p$saltB64$hashB64`: verification reads the parameters from the stored
 * value, so the defaults can be raised later without invalidating existing passwords.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelization. */
  p: number;
}

/** 2^15 x 8: 32 MiB and ~0.15 s per hash on a 2-core machine (OWASP's scrypt minimum is 2^17 x 8 x 1 at 128 MiB; ours is a lab tool). */
export const SCRYPT_DEFAULTS: Readonly<ScryptParams> = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** What verification accepts from a stored hash: keeps a corrupted row from asking for gigabytes. */
const MAX_MEMORY = 512 * 1024 * 1024;

/** A password hash made by `hashPassword`: the only thing the users queries will store. */
export type PasswordHash = string & { readonly __brand: "PasswordHash" };

/** scrypt needs about 128 * N * r bytes; node's default limit (32 MiB) refuses exactly 2^15 x 8. */
const memoryFor = ({ N, r, p }: ScryptParams) => 128 * N * r + 128 * r * p;

function derive(password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: memoryFor(params) * 2 };
  // NFC, so that the same password typed on another keyboard (composed or decomposed) still matches.
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0;

function validParams(params: ScryptParams): boolean {
  return (
    isPowerOfTwo(params.N) &&
    Number.isInteger(params.r) &&
    params.r >= 1 &&
    params.r <= 64 &&
    Number.isInteger(params.p) &&
    params.p >= 1 &&
    params.p <= 16 &&
    memoryFor(params) <= MAX_MEMORY
  );
}

export async function hashPassword(password: string, params: ScryptParams = SCRYPT_DEFAULTS): Promise<PasswordHash> {
  if (!validParams(params)) throw new Error(`invalid scrypt parameters ${JSON.stringify(params)}`);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64")}$${key.toString("base64")}` as PasswordHash;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

const DECIMAL = /^[1-9]\d{0,9}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The parts of a stored hash, or null when it is not one this module could have written. */
export function parsePasswordHash(encoded: string): ParsedHash | null {
  const parts = encoded.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  if (![n, r, p].every((x) => DECIMAL.test(x)) || !BASE64.test(salt) || !BASE64.test(key)) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!validParams(params)) return null;
  const parsed = { params, salt: Buffer.from(salt, "base64"), key: Buffer.from(key, "base64") };
  if (parsed.salt.length < 8 || parsed.key.length < 16 || parsed.key.length > 64) return null;
  return parsed;
}

/** True when `password` matches `encoded`; false for a wrong password and for a malformed hash. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parsePasswordHash(encoded);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.key.length, parsed.params);
  return timingSafeEqual(key, parsed.key);
}
