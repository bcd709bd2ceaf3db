// Entry point of the `autograms` command.
export {};
