/** The NOTIFY channel of run events; the payload is the key (a run id). Channels are per database. */
export const RUN_CHANNEL = "autograms_runs";
