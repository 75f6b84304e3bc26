import { describe, expect, it } from "vitest";
import { hashPassword, parsePasswordHash, SCRYPT_DEFAULTS, verifyPassword } from "./password";

/** Cheap parameters for the tests that are not about the defaults. */
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe("password hashing", () => {
  it("hashes with the defaults as scrypt$N$r$p$salt$hash and verifies", async () => {
    const hash = await hashPassword("correct horse battery");
    const parts = hash.split("$");
    expect(parts.slice(0, 4)).toEqual(["scrypt", "32768", "8", "1"]);
    expect(Buffer.from(parts[4]!, "base64")).toHaveLength(16);
    expect(Buffer.from(parts[5]!, "base64")).toHaveLength(32);
    expect(parsePasswordHash(hash)?.params).toEqual(SCRYPT_DEFAULTS);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
  });

  it("salts: the same password hashes differently each time, and both verify", async () => {
    const [a, b] = await Promise.all([hashPassword("same password!", FAST), hashPassword("same password!", FAST)]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password!", a)).toBe(true);
    expect(await verifyPassword("same password!", b)).toBe(true);
  });

  it("reads the parameters from the stored hash, so raised defaults keep old hashes valid", async () => {
    const old = await hashPassword("an older password", { N: 2 ** 11, r: 4, p: 2 });
    expect(old.startsWith("scrypt$2048$4$2$")).toBe(true);
    expect(await verifyPassword("an older password", old)).toBe(true);
    expect(await verifyPassword("another password", old)).toBe(false);
  });

  it("normalizes to NFC: a composed and a decomposed é are the same password", async () => {
    const hash = await hashPassword("caf\u00e9 au lait 42", FAST);
    expect(await verifyPassword("cafe\u0301 au lait 42", hash)).toBe(true);
  });

  it("keeps spaces: a password is never trimmed", async () => {
    const hash = await hashPassword(" padded password ", FAST);
    expect(await verifyPassword("padded password", hash)).toBe(false);
    expect(await verifyPassword(" padded password ", hash)).toBe(true);
  });

  it("refuses malformed or unsafe stored hashes without throwing", async () => {
    const good = await hashPassword("some password 1", FAST);
    const [, , r, p, salt, key] = good.split("$");
    const bad = [
      "",
      "plaintext",
      good.replace("scrypt$", "bcrypt$"),
      `scrypt$1000$${r}$${p}$${salt}$${key}`, // N not a power of two
      `scrypt$${2 ** 30}$${r}$${p}$${salt}$${key}`, // would need 128 GiB
      `scrypt$1024$0$${p}$${salt}$${key}`,
      `scrypt$1024$${r}$${p}$${salt}`,
      `scrypt$1024$${r}$${p}$${salt}$not*base64`,
      `scrypt$1024$${r}$${p}$c2FsdA==$${key}`, // a 4-byte salt
      `scrypt$01024$${r}$${p}$${salt}$${key}`,
    ];
    for (const encoded of bad) {
      expect(parsePasswordHash(encoded), encoded).toBeNull();
      expect(await verifyPassword("some password 1", encoded), encoded).toBe(false);
    }
  });

  it("refuses to hash with unsafe parameters", async () => {
    await expect(hashPassword("whatever password", { N: 1000, r: 8, p: 1 })).rejects.toThrow(/invalid scrypt/);
  });
});
