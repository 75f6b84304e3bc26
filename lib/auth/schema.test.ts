import { describe, expect, it } from "vitest";
import {
  parseNewUserForm,
  parsePasswordResetForm,
  parseSignInForm,
  RoleSchema,
  safeNextPath,
  SessionTokenSchema,
  UsernameSchema,
} from "./schema";

describe("account fields", () => {
  it("usernames: 3..40 of a-z 0-9 . _ -, stored lower-case", () => {
    expect(UsernameSchema.parse("  Alice.B_2-x ")).toBe("alice.b_2-x");
    expect(UsernameSchema.parse("a".repeat(40))).toHaveLength(40);
    for (const bad of ["ab", "a".repeat(41), "al ice", "alice!", "ålice", ""])
      expect(UsernameSchema.safeParse(bad).success, bad).toBe(false);
    expect(UsernameSchema.safeParse("ab").error?.issues[0]?.message).toBe("at least 3 characters");
  });

  it("roles: admin, annotator, viewer", () => {
    expect(RoleSchema.parse("annotator")).toBe("annotator");
    expect(RoleSchema.safeParse("root").error?.issues[0]?.message).toBe("one of admin, annotator, viewer");
  });

  it("session tokens: 43 base64url characters", () => {
    expect(SessionTokenSchema.safeParse("A".repeat(43)).success).toBe(true);
    expect(SessionTokenSchema.safeParse("A_-9".repeat(10) + "abc").success).toBe(true);
    for (const bad of ["A".repeat(42), "A".repeat(44), `${"A".repeat(42)}=`, `${"A".repeat(42)}+`])
      expect(SessionTokenSchema.safeParse(bad).success, bad).toBe(false);
  });
});

describe("forms", () => {
  it("new account: each bad field named, display name defaults to the username", () => {
    expect(
      parseNewUserForm({ username: "Ann1", displayName: "  ", role: "annotator", password: "twelve chars" }),
    ).toEqual({
      ok: true,
      value: { username: "ann1", displayName: "ann1", role: "annotator", password: "twelve chars" },
    });
    const bad = parseNewUserForm({ username: "x", displayName: "ok", role: "boss", password: "short" });
    expect(bad).toEqual({
      ok: false,
      fieldErrors: {
        username: "at least 3 characters",
        role: "one of admin, annotator, viewer",
        password: "at least 12 characters",
      },
    });
    const missing = parseNewUserForm({ username: null, displayName: null, role: null, password: null });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(Object.keys(missing.fieldErrors).sort()).toEqual(["password", "role", "username"]);
    const long = parseNewUserForm({ username: "ann", displayName: "x", role: "admin", password: "p".repeat(201) });
    expect(long.ok ? null : long.fieldErrors.password).toBe("at most 200 characters");
    const control = parseNewUserForm({
      username: "ann",
      displayName: "a\u0007b",
      role: "admin",
      password: "p".repeat(12),
    });
    expect(control.ok ? null : control.fieldErrors.displayName).toBe("no control characters");
  });

  it("sign-in: only asks for something in both fields", () => {
    expect(parseSignInForm({ username: " Admin ", password: "x" })).toEqual({
      ok: true,
      value: { username: "admin", password: "x" },
    });
    expect(parseSignInForm({ username: "", password: null })).toEqual({
      ok: false,
      fieldErrors: { username: "enter your username", password: "enter your password" },
    });
  });

  it("password reset: an account and a valid password", () => {
    expect(parsePasswordResetForm({ userId: "7", password: "a new password" })).toEqual({
      ok: true,
      value: { userId: 7, password: "a new password" },
    });
    expect(parsePasswordResetForm({ userId: "", password: "a new password" })).toEqual({
      ok: false,
      fieldErrors: { userId: "choose an account" },
    });
    expect(parsePasswordResetForm({ userId: "abc", password: "" }).ok).toBe(false);
  });
});

describe("safeNextPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(safeNextPath("/admin/users")).toBe("/admin/users");
    expect(safeNextPath("/runs?metric=file_read&page=2#top")).toBe("/runs?metric=file_read&page=2#top");
    expect(safeNextPath("/a/../jobs")).toBe("/jobs");
  });

  it("refuses anything that could leave the site, loop, or is not a path", () => {
    const refused = [
      undefined,
      null,
      42,
      "",
      "admin",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "/\t/evil.example",
      "/\n/evil.example",
      "/login",
      "/login?next=/jobs",
      `/${"a".repeat(2001)}`,
    ];
    for (const value of refused) expect(safeNextPath(value), String(value)).toBe("/");
    expect(safeNextPath("//evil.example", "/overview")).toBe("/overview");
  });
});
