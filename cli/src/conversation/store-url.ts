import { storeUrlFrom } from "@autograms/store";

/** `--store URL`, or `--store` alone / not given: AUTOGRAMS_STORE, else the default SQLite file. */
export function storeUrl(flag: string | true | undefined): string {
  return storeUrlFrom(flag === true ? undefined : flag);
}
