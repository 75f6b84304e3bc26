/**
 * What the CLIs read besides the task: the agent's guidelines and the run's Code-KIT
 * instructions, as one text for an instructions file under HOME (never in the workspace, where a
 * new file would itself count as a change).
 */

/** The texts given, in order, one blank line apart; null when none. */
export function joinInstructions(...parts: (string | null)[]): string | null {
  const given = parts.filter((part): part is string => part !== null && part.trim() !== "");
  return given.length > 0 ? `${given.join("\n\n")}\n` : null;
}
