import { describe, expect, it } from "vitest";
import { cohenKappa, cohenKappaStats } from "./kappa";
import { expectInvalid, transpose } from "./test-support";

const TABLES = [
  [
    [20, 5],
    [10, 15],
  ],
  [
    [0, 4, 1],
    [0, 8, 0],
    [0, 1, 5],
  ],
  [
    [13, 0, 0],
    [0, 20, 7],
    [0, 4, 56],
  ],
  [
    [3, 9, 1, 0],
    [2, 0, 7, 4],
    [5, 5, 5, 5],
    [0, 1, 0, 30],
  ],
];

describe("cohenKappa properties", () => {
  it("is 1 with SE 0 on perfect agreement", () => {
    for (const table of [
      [
        [5, 0],
        [0, 7],
      ],
      [
        [1, 0, 0],
        [0, 2, 0],
        [0, 0, 3],
      ],
    ]) {
      const stats = cohenKappaStats(table);
      expect(stats.kappa).toBeCloseTo(1, 12);
      expect(stats.standardError).toBeCloseTo(0, 12);
    }
  });

  it("is -1 on complete disagreement with balanced marginals", () => {
    expect(
      cohenKappa([
        [0, 6],
        [6, 0],
      ]),
    ).toBeCloseTo(-1, 12);
  });

  it("is 0 when the table is the product of its marginals (chance agreement)", () => {
    expect(
      cohenKappa([
        [6, 9],
        [14, 21],
      ]),
    ).toBeCloseTo(0, 12);
  });

  it.each(TABLES)("is symmetric under transpose, SEs included (%#)", (...rows) => {
    const table = rows as number[][];
    const a = cohenKappaStats(table);
    const b = cohenKappaStats(transpose(table));
    expect(b.kappa).toBeCloseTo(a.kappa as number, 12);
    expect(b.standardError).toBeCloseTo(a.standardError as number, 12);
    expect(b.standardErrorNull).toBeCloseTo(a.standardErrorNull as number, 12);
  });

  it.each(TABLES)("keeps kappa under scaling while the SE shrinks with sqrt(n) (%#)", (...rows) => {
    const table = rows as number[][];
    const a = cohenKappaStats(table);
    const b = cohenKappaStats(table.map((row) => row.map((cell) => cell * 4)));
    expect(b.kappa).toBeCloseTo(a.kappa as number, 12);
    expect(b.standardError).toBeCloseTo((a.standardError as number) / 2, 12);
  });

  it("lies in [-1, 1]", () => {
    for (const table of TABLES) {
      const kappa = cohenKappa(table) as number;
      expect(kappa).toBeGreaterThanOrEqual(-1);
      expect(kappa).toBeLessThanOrEqual(1);
    }
  });

  it("widens the interval with a larger critical value", () => {
    const table = TABLES[1] as number[][];
    const at95 = cohenKappaStats(table).interval as [number, number];
    const at99 = cohenKappaStats(table, { z: 2.5758293035489 }).interval as [number, number];
    expect(at99[0]).toBeLessThan(at95[0]);
    expect(at99[1]).toBeGreaterThan(at95[1]);
  });

  it("does not modify its input", () => {
    const table = [
      [1, 2],
      [3, 4],
    ];
    cohenKappaStats(table);
    expect(table).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});

describe("cohenKappa edge cases", () => {
  it("returns null for an empty table and for a table of zeros", () => {
    expect(cohenKappa([])).toBeNull();
    const stats = cohenKappaStats([
      [0, 0],
      [0, 0],
    ]);
    expect(stats).toMatchObject({ n: 0, kappa: null, observedAgreement: null, interval: null });
  });

  it("returns null when every rating falls in one category (Pe = 1)", () => {
    expect(cohenKappaStats([[7]])).toMatchObject({ n: 7, observedAgreement: 1, expectedAgreement: 1, kappa: null });
    // A binary metric nobody ever marked violated: agreement is perfect but kappa is 0/0.
    expect(
      cohenKappa([
        [0, 0],
        [0, 9],
      ]),
    ).toBeNull();
  });

  it("has no z statistic when the raters never use a common category", () => {
    const stats = cohenKappaStats([
      [0, 3],
      [0, 0],
    ]);
    expect(stats.kappa).toBe(0);
    expect(stats.zStatistic).toBeNull();
  });

  it("rejects non-square, ragged, negative, fractional and non-finite tables", () => {
    expectInvalid(
      () =>
        cohenKappa([
          [1, 2, 3],
          [4, 5, 6],
        ]),
      "cohenKappa: table must be square",
    );
    expectInvalid(() => cohenKappa([[1, 2], [3]]), "row 1 has 1 columns");
    expectInvalid(
      () =>
        cohenKappa([
          [1, -1],
          [0, 2],
        ]),
      "cohenKappa: table[0][1] must not be negative (got -1)",
    );
    expectInvalid(
      () =>
        cohenKappa([
          [0.5, 0.5],
          [0, 0],
        ]),
      "table[0][0] must be a whole number",
    );
    expectInvalid(
      () =>
        cohenKappa([
          [1, NaN],
          [0, 2],
        ]),
      "table[0][1] must be a finite number",
    );
    expectInvalid(
      () =>
        cohenKappa([
          [1, Infinity],
          [0, 2],
        ]),
      "table[0][1]",
    );
    expectInvalid(() => cohenKappa(null as unknown as number[][]), "table must be an array of rows");
  });

  it("rejects a non-positive critical value", () => {
    expectInvalid(
      () =>
        cohenKappaStats(
          [
            [1, 0],
            [0, 1],
          ],
          { z: 0 },
        ),
      "cohenKappa: z must be positive",
    );
  });
});
