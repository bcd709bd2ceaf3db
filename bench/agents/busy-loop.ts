// An agent whose turns are CPU-heavy: "work N" computes N loop steps (code steps, no model call)
// before it answers, so the turn's own work, not the clients or the store, limits a server's
// turns/s. bench/serve.mjs (section workers) measures it with one worker thread and with two.
import { Autogram, chatExact } from "@autograms/runtime";

export default class BusyLoop extends Autogram {
  done = 0;

  main() {
    chatExact("Send 'work N': I compute N loop steps, then answer.", { name: "ask" });
    while (true) {
      const steps = Number(this._last_user_reply.slice(5));
      let i = 0;
      while (i < steps) {
        i = i + 1;
      }
      this.done = this.done + i;
      chatExact(`Computed ${i} steps (${this.done} in all).`, { name: "answer" });
    }
  }
}
