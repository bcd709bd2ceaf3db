// The build `chat --watch` plays its turns on (CurrentBuild): a turn under way keeps the build it
// started on, a replaced build is closed once no turn plays on it (its worker ends then), at once
// when none does, and whatever is left when the command ends.
import { describe, expect, it } from "vitest";
import { CurrentBuild } from "../../cli/src/live/current-build.js";

const build = (name: string, closed: string[]) => ({ name, close: async () => void closed.push(name) });

describe("the current build", () => {
  it("closes a replaced build after the turn that plays on it, and at once when none does", async () => {
    const closed: string[] = [];
    const builds = new CurrentBuild(build("a", closed));
    let finish!: () => void;
    const turn = builds.during(async (b) => {
      await new Promise<void>((r) => (finish = r));
      return b.name;
    });
    await builds.use(build("b", closed));
    // The turn under way goes on with "a", which stays open; a turn that starts now plays on "b".
    expect(closed).toEqual([]);
    expect(await builds.during(async (b) => b.name)).toBe("b");
    finish();
    expect(await turn).toBe("a");
    await expect.poll(() => closed).toEqual(["a"]);
    await builds.use(build("c", closed));
    expect(closed).toEqual(["a", "b"]);
    await builds.close();
    expect(closed).toEqual(["a", "b", "c"]);
  });

  it("closes at the end the builds replaced while a turn still plays on them", async () => {
    const closed: string[] = [];
    const builds = new CurrentBuild(build("a", closed));
    void builds.during(() => new Promise<never>(() => {}));
    await builds.use(build("b", closed));
    await builds.close();
    expect(closed.sort()).toEqual(["a", "b"]);
  });
});
