package org.leveldbj.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/**
 * {@code leveldb completion}: prints a bash completion script for every command and option,
 * usable by zsh as well (through its bashcompinit).
 */
@Command(name = "completion", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print a completion script for bash and zsh.",
        description = {
            "Load it with:  source <(bin/leveldb completion)",
            "In zsh, first:  autoload -U +X compinit && compinit",
            "                autoload -U +X bashcompinit && bashcompinit",
        })
final class CompletionCommand extends CommandBase {
    @Override
    int run() {
        out().print(AutoComplete.bash("leveldb", spec.root().commandLine()));
        return ExitCode.OK;
    }
}
