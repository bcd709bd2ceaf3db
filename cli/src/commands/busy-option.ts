import { Option } from "commander";

// Not imported from the store: the command line loads no package code (see main.ts).
const BUSY_POLICIES = ["reject", "enqueue", "interrupt", "rollback"];

/** `--busy <policy>`: what a message for a thread with a run in progress does (the store's policies). */
export const busyOption = (description: string) => new Option("--busy <policy>", description).choices(BUSY_POLICIES);
