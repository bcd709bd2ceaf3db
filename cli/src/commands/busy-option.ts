import type { BusyPolicy } from "@autograms/store";
import { Option } from "commander";

// Not imported from the store: the command line loads no package code (see main.ts). The store's
// type holds this table to its list: a policy missing here, or one it does not take, fails to compile.
const BUSY_POLICIES: Record<BusyPolicy, true> = { reject: true, enqueue: true, interrupt: true, rollback: true };

/** `--busy <policy>`: what a message for a thread with a run in progress does (the store's policies). */
export const busyOption = (description: string) =>
  new Option("--busy <policy>", description).choices(Object.keys(BUSY_POLICIES));
