import type { StalePolicy } from "@autograms/store";
import { Option } from "commander";

// Not imported from the store: the command line loads no package code (see main.ts). The store's
// type holds this table to its list: an answer missing here, or one it does not take, fails to compile.
const STALE_POLICIES: Record<StalePolicy, true> = { refuse: true, restart: true };

/** `--on-stale <policy>`: what a conversation that cannot resume on the (edited) agent does. */
export const staleOption = (description: string) =>
  new Option("--on-stale <policy>", description).choices(Object.keys(STALE_POLICIES));
