import { Option } from "commander";

// Not imported from the store: the command line loads no package code (see main.ts).
const STALE_POLICIES = ["refuse", "restart"];

/** `--on-stale <policy>`: what a conversation that cannot resume on the (edited) agent does. */
export const staleOption = (description: string) =>
  new Option("--on-stale <policy>", description).choices(STALE_POLICIES);
