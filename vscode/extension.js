// The AutoGRAMS extension: the `autograms` debug type runs the project's own `autograms dap` over
// stdio (the CLI found in node_modules from the launch's cwd or the workspace folder, so the adapter
// is always the version the project installed), and the `autograms` task type compiles an agent
// with its diagnostics going through the `$autograms` problem matcher.
// Plain CommonJS with no dependencies: VS Code loads it as it is, and tests load it with a stand-in
// for the `vscode` module (every function takes the API as an argument).

const { dirname, join } = require("node:path");

/** The `autograms` bin of the @autograms/cli installed where `folder` resolves packages, or null. */
function findCli(folder) {
  try {
    const pkg = require.resolve("@autograms/cli/package.json", { paths: [folder] });
    return join(dirname(pkg), "bin", "autograms.js");
  } catch {
    return null;
  }
}

/** Where a debug session looks for the CLI: its `cwd`, else its workspace folder. */
function sessionFolder(session) {
  return session.configuration.cwd || session.workspaceFolder?.uri.fsPath || process.cwd();
}

/** Starts `node <project>/node_modules/@autograms/cli/bin/autograms.js dap` for each session. */
function adapterDescriptorFactory(vscode) {
  return {
    createDebugAdapterDescriptor(session) {
      const folder = sessionFolder(session);
      const cli = findCli(folder);
      if (!cli) {
        throw new Error(
          `AutoGRAMS: @autograms/cli is not installed in ${folder}: run \`npm install @autograms/cli\` there (docs/install.md)`,
        );
      }
      // "node" from PATH: inside VS Code, process.execPath is the editor's own binary.
      return new vscode.DebugAdapterExecutable("node", [cli, "dap"], { cwd: folder });
    },
  };
}

/** The task `{ "type": "autograms", "file": "agent.ts" }`: `autograms compile FILE`, problems matched. */
function compileTask(vscode, definition, scope) {
  const execution = new vscode.ShellExecution("npx", ["autograms", "compile", definition.file]);
  const task = new vscode.Task(
    definition,
    scope ?? vscode.TaskScope.Workspace,
    `compile ${definition.file}`,
    "autograms",
    execution,
    ["$autograms"],
  );
  task.group = vscode.TaskGroup.Build;
  return task;
}

function taskProvider(vscode) {
  return {
    /** One compile task for each agent.ts of the workspace. */
    async provideTasks() {
      const agents = await vscode.workspace.findFiles("**/agent.ts", "**/node_modules/**", 50);
      return agents.map((uri) => {
        const folder = vscode.workspace.getWorkspaceFolder(uri);
        return compileTask(vscode, { type: "autograms", file: vscode.workspace.asRelativePath(uri, false) }, folder);
      });
    },
    resolveTask(task) {
      return task.definition.file ? compileTask(vscode, task.definition, task.scope) : undefined;
    },
  };
}

function activate(context, vscode = require("vscode")) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory("autograms", adapterDescriptorFactory(vscode)),
    vscode.tasks.registerTaskProvider("autograms", taskProvider(vscode)),
  );
}

function deactivate() {}

module.exports = { activate, deactivate, findCli, adapterDescriptorFactory, taskProvider };
