// A store whose driver package is not installed says what to install (the CLI keeps the drivers as
// optional peer dependencies, so a project may lack them).
import { describe, expect, it } from "vitest";
import { loadDriver } from "../../store/src/sql/load-driver.js";
import { StoreError } from "@autograms/store";

describe("loading a store's database driver", () => {
  it("names the package to install when it is missing", () => {
    let caught: unknown;
    try {
      loadDriver("autograms-no-such-driver", "3", "Example");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect(caught).toMatchObject({
      code: "unavailable",
      message:
        "the Example store needs the autograms-no-such-driver package, which is not installed: npm install autograms-no-such-driver@3",
    });
  });

  it("loads an installed driver", () => {
    const pg = loadDriver<{ Pool: unknown }>("pg", "8", "Postgres");
    expect(typeof pg.Pool).toBe("function");
  });
});
