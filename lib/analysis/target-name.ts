/**
 * How an instance names its target function. A target that is the first definition of its
 * qualified name is `Class.method` or `function`; one that is not (a property setter or deleter,
 * a redefinition) is `name#n`, n counting the definitions of that qualified name in source order
 * from 1 (the `occurrence` of python-definitions.ts). DESIGN.md: the benchmark builder writes it
 * and every consumer reads it. Dependency-free, so pages and judges can import it.
 */

export interface TargetName {
  /** `Box.value`, without the `#n`. */
  qualifiedName: string;
  /** 1 when the name carries no `#n`. */
  occurrence: number;
}

export function parseTargetName(target: string): TargetName {
  const match = /^(.*)#(\d+)$/.exec(target);
  if (!match) return { qualifiedName: target, occurrence: 1 };
  return { qualifiedName: match[1]!, occurrence: Math.max(1, Number(match[2])) };
}

/** `Box.value` for the first definition, `Box.value#2` for the second. */
export function formatTargetName(qualifiedName: string, occurrence: number): string {
  return occurrence <= 1 ? qualifiedName : `${qualifiedName}#${occurrence}`;
}

/** The function's own name, as code calls it: `value` for `Box.value#2`. */
export function plainFunctionName(target: string): string {
  const { qualifiedName } = parseTargetName(target);
  return qualifiedName.split(".").at(-1) ?? qualifiedName;
}

/** For people: `Box.value#2` is "Box.value, definition 2 of that name in its file (...)"; a plain name is itself. */
export function describeTargetName(target: string): string {
  const { qualifiedName, occurrence } = parseTargetName(target);
  return occurrence === 1
    ? qualifiedName
    : `${qualifiedName}, definition ${occurrence} of that name in its file (a property setter or deleter, or a redefinition)`;
}
