/// Shell completions for bash, zsh and fish, generated from the command declarations.
enum ShellCompletion {
    enum Shell: String, CaseIterable { case bash, zsh, fish }

    static func render(_ shell: Shell) -> String {
        switch shell {
        case .bash: return bash
        case .zsh: return zsh
        case .fish: return fish
        }
    }

    /// The fixed choices of an option's value (`bug|fixed`), or nil for a free value (`FILE`, `MS`).
    static func choices(_ option: OptionSpec) -> [String]? {
        guard let value = option.value, value.contains("|"), value == value.lowercased() else { return nil }
        return value.split(separator: "|").map(String.init).filter { $0 != "-" }
    }

    static var bash: String {
        let commandNames = CommandRegistry.all.map { $0.name }
        let names = commandNames.joined(separator: " ")
        let alternatives = commandNames.joined(separator: "|")
        var script = """
            # bash completion for analyze-recording (generated: analyze-recording --completion bash)
            _analyze_recording() {
                local cur prev sub=analyze opts="" i
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in \(alternatives)) sub="${COMP_WORDS[i]}"; break ;; esac
                done
                case "$sub" in

            """
        for command in CommandRegistry.all {
            let flags = command.options.map { "--" + $0.name } + ["--help"]
            script += "        \(command.name)) opts=\"\(flags.joined(separator: " "))\" ;;\n"
        }
        script += "    esac\n    case \"$prev\" in\n"
        var choiceCases: [String: [String]] = [:]
        var valueOptions: Set<String> = []
        for command in CommandRegistry.all {
            for option in command.options where option.value != nil {
                if let c = choices(option) { choiceCases["--" + option.name] = c } else { valueOptions.insert("--" + option.name) }
            }
        }
        for (flag, words) in choiceCases.sorted(by: { $0.key < $1.key }) {
            script += "        \(flag)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
        }
        script += "        \(valueOptions.sorted().joined(separator: "|"))) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
        script += """
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                elif ((COMP_CWORD == 1)); then
                    COMPREPLY=($(compgen -W "\(names) help" -- "$cur") $(compgen -f -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
            }
            complete -o filenames -F _analyze_recording analyze-recording

            """
        return script
    }

    /// Text inside a zsh `_arguments` spec's description: brackets, colons and quotes escaped.
    static func zshText(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "[", "]", ":", "\\": out += "\\" + String(c)
            case "'": out += "'\\''"
            default: out.append(c)
            }
        }
        return out
    }

    static var zsh: String {
        var script = """
            #compdef analyze-recording
            # zsh completion for analyze-recording (generated: analyze-recording --completion zsh)
            _analyze_recording() {
                local -a commands
                commands=(

            """
        for command in CommandRegistry.all {
            script += "        '\(command.name):\(zshText(command.abstract))'\n"
        }
        script += """
                )
                if (( CURRENT == 2 )); then
                    _describe -t commands 'analyze-recording command' commands
                    _files
                    return
                fi
                local sub=$words[2]
                case $sub in

            """
        for command in CommandRegistry.all {
            script += "        \(command.name))\n            _arguments \\\n"
            for option in command.options {
                var spec = "'--\(option.name)[\(zshText(option.help))]"
                if let value = option.value {
                    spec += choices(option).map { ":\(zshText(value)):(\($0.joined(separator: " ")))" } ?? ":\(zshText(value)):_files"
                }
                script += "                \(spec)' \\\n"
            }
            script += "                '*:file:_files'\n            ;;\n"
        }
        script += """
                *)
                    _files
                    ;;
                esac
            }
            _analyze_recording "$@"

            """
        return script
    }

    static func fishText(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    static var fish: String {
        let names = CommandRegistry.all.map { $0.name }.joined(separator: " ")
        var script = "# fish completion for analyze-recording (generated: analyze-recording --completion fish)\n"
        for command in CommandRegistry.all {
            script +=
                "complete -c analyze-recording -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d \(fishText(command.abstract))\n"
        }
        for command in CommandRegistry.all {
            for option in command.options {
                var line = "complete -c analyze-recording -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name)"
                if option.value != nil {
                    line += " -r"
                    if let c = choices(option) { line += " -f -a \(fishText(c.joined(separator: " ")))" }
                }
                script += line + " -d \(fishText(option.help))\n"
            }
        }
        return script
    }
}
