/**
 * The Agent select's value for "the agent file named in the Agent file field" on the Jobs page.
 * Its own module: the form is a client component, and lib/jobs/form.ts reads the file system.
 */
export const AGENT_FILE_CHOICE = "file";
