import { describe, expect, it } from "vitest";
import { mayRead, READ_AREAS } from "./access";
import { ROLES } from "./schema";

describe("who reads what", () => {
  it("in open mode (no annotator yet) everyone reads everything, signed in or not", () => {
    for (const area of READ_AREAS)
      for (const role of [null, ...ROLES])
        expect(mayRead(area, { studyActive: false, role }), `${area} ${role}`).toBe(true);
  });

  it("once a study is active: nothing signed out; the dashboard for admins and viewers; case studies for admins", () => {
    const table = Object.fromEntries(
      READ_AREAS.map((area) => [
        area,
        [null, ...ROLES].filter((role) => mayRead(area, { studyActive: true, role })).map(String),
      ]),
    );
    expect(table).toEqual({ dashboard: ["admin", "viewer"], "case-studies": ["admin"] });
  });
});
