/**
 * What the tools of the known agent frameworks do to files and the environment: one module per
 * framework in this folder, merged here. Readers of foreign logs (lib/foreign) and the rule judge
 * (lib/judge/rules) share it, so a tool is described once. Owned by the rules work of issue 15.
 */
export {};
