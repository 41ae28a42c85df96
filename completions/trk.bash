# bash completion for trk (generated from the command definitions by `npm run build`; do not edit)
# Install: source this file from ~/.bashrc, or copy it to ~/.local/share/bash-completion/completions/trk
_trk_subcommands() {
  case "$1" in
    '') printf '%s\n' 'change-carrier' 'delete' 'info' 'list' 'push' 'realtime' 'register' 'retrack' 'stop' 'update' 'changes' 'find' 'notify' 'report' 'sync' 'auth' 'config' 'quota' 'runs' 'sandbox' 'webhook' 'api' 'carriers' 'completion' 'countries' 'help' ;;
    'notify') printf '%s\n' 'list' 'add' 'remove' 'test' 'run' ;;
    'auth') printf '%s\n' 'login' 'switch' 'list' 'status' 'logout' ;;
    'config') printf '%s\n' 'get' 'set' 'unset' 'list' ;;
    'runs') printf '%s\n' 'list' 'forget' ;;
    'sandbox') printf '%s\n' 'start' 'reset' ;;
    'webhook') printf '%s\n' 'verify' 'listen' 'replay' 'trigger' ;;
    'help') printf '%s\n' 'change-carrier' 'delete' 'info' 'list' 'push' 'realtime' 'register' 'retrack' 'stop' 'update' 'changes' 'find' 'notify' 'report' 'sync' 'auth' 'config' 'quota' 'runs' 'sandbox' 'webhook' 'api' 'carriers' 'completion' 'countries' 'exit-codes' 'options' ;;
    'help notify') printf '%s\n' 'list' 'add' 'remove' 'test' 'run' ;;
    'help auth') printf '%s\n' 'login' 'switch' 'list' 'status' 'logout' ;;
    'help config') printf '%s\n' 'get' 'set' 'unset' 'list' ;;
    'help runs') printf '%s\n' 'list' 'forget' ;;
    'help sandbox') printf '%s\n' 'start' 'reset' ;;
    'help webhook') printf '%s\n' 'verify' 'listen' 'replay' 'trigger' ;;
  esac
}
_trk_options() {
  case "$1" in
    '') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'change-carrier') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--restart' '--again' '--to' '--from' '--final-to' '--final-from' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'delete') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--restart' '--again' '--carrier' '--ignore-missing' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'info') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--carrier' '--status' '--sub-status' '--page' '--offline' '--db' '--relative' '--no-pager' '--columns' '--watch' '--every' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'list') printf '%s\n' '--status' '--carrier' '--tracking' '--origin' '--registered-since' '--registered-until' '--tracked-since' '--tracked-until' '--pushed-since' '--pushed-until' '--push-status' '--push-code' '--stopped-since' '--stopped-until' '--number' '--tag' '--sub-status' '--order' '--email' '--search' '--stale' '--offline' '--db' '--order-by' '--limit' '--all' '--page' '--relative' '--no-pager' '--columns' '--watch' '--every' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'push') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--restart' '--again' '--carrier' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'realtime') printf '%s\n' '--carrier' '--param' '--final-carrier' '--fresh' '--relative' '--no-pager' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'register') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--restart' '--again' '--carrier' '--param' '--tag' '--lang' '--email' '--final-carrier' '--no-auto-detection' '--order-no' '--order-time' '--remark' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'retrack') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--restart' '--again' '--carrier' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'stop') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--restart' '--again' '--carrier' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'update') printf '%s\n' '-f' '--file' '--dry-run' '--rejects' '--skip-invalid' '--column' '--ignore-column' '--delimiter' '--carrier-map' '--restart' '--again' '--carrier' '--tag' '--param' '--lang' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'changes') printf '%s\n' '--columns' '--relative' '--since' '--status' '--cursor' '--exec' '--ack' '--db' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'find') printf '%s\n' '--columns' '--db' '--relative' '--no-pager' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'notify') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'notify list') printf '%s\n' '--relative' '--db' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'notify add') printf '%s\n' '--when' '--stuck' '--late' '--carrier' '--tag' '--to' '--digest' '--template' '--db' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'notify remove') printf '%s\n' '--db' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'notify test') printf '%s\n' '--to' '--db' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'notify run') printf '%s\n' '--dry-run' '--pace' '--rule' '--db' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'report') printf '%s\n' '--by' '--since' '--carrier' '--from' '--to' '--stuck-days' '--all' '--html' '--db' '--no-pager' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'sync') printf '%s\n' '--full' '--db' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'auth') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'auth login') printf '%s\n' '--with-key-stdin' '--activate' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'auth switch') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'auth list') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'auth status') printf '%s\n' '--offline' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'auth logout') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'config') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'config get') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'config set') printf '%s\n' '--create' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'config unset') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'config list') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'quota') printf '%s\n' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'runs') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'runs list') printf '%s\n' '--columns' '--relative' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'runs forget') printf '%s\n' '--all' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'sandbox') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'sandbox start') printf '%s\n' '--port' '--host' '--key' '--webhook' '--speed' '--state' '--no-state' '--start' '--latency' '--jitter' '--failure-rate' '--drop-rate' '--burst-429' '--burst-every' '--burst-for' '--no-retry-after' '--page-overlap' '--rate-limit' '--quota' '--daily-cap' '--ip-allow' '--disabled' '--no-realtime' '--tick' '--seed' '--numeric-metrics' '--strict-paths' '--log' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'sandbox reset') printf '%s\n' '--state' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'webhook') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'webhook verify') printf '%s\n' '--body' '--headers' '--sign' '--v1' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'webhook listen') printf '%s\n' '--port' '--host' '--path' '--forward-to' '--save' '--print' '--store' '--db' '--skip-verify' '--notify' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'webhook replay') printf '%s\n' '--forward-to' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'webhook trigger') printf '%s\n' '--number' '--carrier' '--sub-status' '--event' '--to' '--db' '--dry-run' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'api') printf '%s\n' '-d' '--data' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'carriers') printf '%s\n' '--refresh' '--aliases' '--carrier-map' '--no-pager' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'completion') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'countries') printf '%s\n' '--refresh' '--no-pager' '--columns' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
    'help') printf '%s\n' '-V' '--version' '--profile' '--base-url' '--api-version' '--sandbox' '-o' '--output' '--json' '--csv' '--header' '--jq' '-q' '--quiet' '-v' '--verbose' '-y' '--yes' '--no-color' '--timeout' '--raw-csv' '-h' '--help' ;;
  esac
}
_trk_argument_values() {
  case "$1" in
    'auth switch') trk __complete profiles 2>/dev/null ;;
    'completion') printf '%s\n' 'bash' 'zsh' 'fish' 'powershell' ;;
  esac
}
_trk_takes_value() {
  case "$1|$2" in
    '|--profile'|\
    '|--base-url'|\
    '|--api-version'|\
    '|-o'|\
    '|--output'|\
    '|--jq'|\
    '|--timeout'|\
    'change-carrier|-f'|\
    'change-carrier|--file'|\
    'change-carrier|--rejects'|\
    'change-carrier|--column'|\
    'change-carrier|--ignore-column'|\
    'change-carrier|--delimiter'|\
    'change-carrier|--carrier-map'|\
    'change-carrier|--to'|\
    'change-carrier|--from'|\
    'change-carrier|--final-to'|\
    'change-carrier|--final-from'|\
    'change-carrier|--columns'|\
    'change-carrier|--profile'|\
    'change-carrier|--base-url'|\
    'change-carrier|--api-version'|\
    'change-carrier|-o'|\
    'change-carrier|--output'|\
    'change-carrier|--jq'|\
    'change-carrier|--timeout'|\
    'delete|-f'|\
    'delete|--file'|\
    'delete|--rejects'|\
    'delete|--column'|\
    'delete|--ignore-column'|\
    'delete|--delimiter'|\
    'delete|--carrier-map'|\
    'delete|--carrier'|\
    'delete|--columns'|\
    'delete|--profile'|\
    'delete|--base-url'|\
    'delete|--api-version'|\
    'delete|-o'|\
    'delete|--output'|\
    'delete|--jq'|\
    'delete|--timeout'|\
    'info|-f'|\
    'info|--file'|\
    'info|--rejects'|\
    'info|--column'|\
    'info|--ignore-column'|\
    'info|--delimiter'|\
    'info|--carrier-map'|\
    'info|--carrier'|\
    'info|--status'|\
    'info|--sub-status'|\
    'info|--db'|\
    'info|--columns'|\
    'info|--every'|\
    'info|--profile'|\
    'info|--base-url'|\
    'info|--api-version'|\
    'info|-o'|\
    'info|--output'|\
    'info|--jq'|\
    'info|--timeout'|\
    'list|--status'|\
    'list|--carrier'|\
    'list|--tracking'|\
    'list|--origin'|\
    'list|--registered-since'|\
    'list|--registered-until'|\
    'list|--tracked-since'|\
    'list|--tracked-until'|\
    'list|--pushed-since'|\
    'list|--pushed-until'|\
    'list|--push-status'|\
    'list|--push-code'|\
    'list|--stopped-since'|\
    'list|--stopped-until'|\
    'list|--number'|\
    'list|--tag'|\
    'list|--sub-status'|\
    'list|--order'|\
    'list|--email'|\
    'list|--search'|\
    'list|--stale'|\
    'list|--db'|\
    'list|--order-by'|\
    'list|--limit'|\
    'list|--page'|\
    'list|--columns'|\
    'list|--every'|\
    'list|--profile'|\
    'list|--base-url'|\
    'list|--api-version'|\
    'list|-o'|\
    'list|--output'|\
    'list|--jq'|\
    'list|--timeout'|\
    'push|-f'|\
    'push|--file'|\
    'push|--rejects'|\
    'push|--column'|\
    'push|--ignore-column'|\
    'push|--delimiter'|\
    'push|--carrier-map'|\
    'push|--carrier'|\
    'push|--columns'|\
    'push|--profile'|\
    'push|--base-url'|\
    'push|--api-version'|\
    'push|-o'|\
    'push|--output'|\
    'push|--jq'|\
    'push|--timeout'|\
    'realtime|--carrier'|\
    'realtime|--param'|\
    'realtime|--final-carrier'|\
    'realtime|--columns'|\
    'realtime|--profile'|\
    'realtime|--base-url'|\
    'realtime|--api-version'|\
    'realtime|-o'|\
    'realtime|--output'|\
    'realtime|--jq'|\
    'realtime|--timeout'|\
    'register|-f'|\
    'register|--file'|\
    'register|--rejects'|\
    'register|--column'|\
    'register|--ignore-column'|\
    'register|--delimiter'|\
    'register|--carrier-map'|\
    'register|--carrier'|\
    'register|--param'|\
    'register|--tag'|\
    'register|--lang'|\
    'register|--email'|\
    'register|--final-carrier'|\
    'register|--order-no'|\
    'register|--order-time'|\
    'register|--remark'|\
    'register|--columns'|\
    'register|--profile'|\
    'register|--base-url'|\
    'register|--api-version'|\
    'register|-o'|\
    'register|--output'|\
    'register|--jq'|\
    'register|--timeout'|\
    'retrack|-f'|\
    'retrack|--file'|\
    'retrack|--rejects'|\
    'retrack|--column'|\
    'retrack|--ignore-column'|\
    'retrack|--delimiter'|\
    'retrack|--carrier-map'|\
    'retrack|--carrier'|\
    'retrack|--columns'|\
    'retrack|--profile'|\
    'retrack|--base-url'|\
    'retrack|--api-version'|\
    'retrack|-o'|\
    'retrack|--output'|\
    'retrack|--jq'|\
    'retrack|--timeout'|\
    'stop|-f'|\
    'stop|--file'|\
    'stop|--rejects'|\
    'stop|--column'|\
    'stop|--ignore-column'|\
    'stop|--delimiter'|\
    'stop|--carrier-map'|\
    'stop|--carrier'|\
    'stop|--columns'|\
    'stop|--profile'|\
    'stop|--base-url'|\
    'stop|--api-version'|\
    'stop|-o'|\
    'stop|--output'|\
    'stop|--jq'|\
    'stop|--timeout'|\
    'update|-f'|\
    'update|--file'|\
    'update|--rejects'|\
    'update|--column'|\
    'update|--ignore-column'|\
    'update|--delimiter'|\
    'update|--carrier-map'|\
    'update|--carrier'|\
    'update|--tag'|\
    'update|--param'|\
    'update|--lang'|\
    'update|--columns'|\
    'update|--profile'|\
    'update|--base-url'|\
    'update|--api-version'|\
    'update|-o'|\
    'update|--output'|\
    'update|--jq'|\
    'update|--timeout'|\
    'changes|--columns'|\
    'changes|--since'|\
    'changes|--status'|\
    'changes|--cursor'|\
    'changes|--exec'|\
    'changes|--db'|\
    'changes|--profile'|\
    'changes|--base-url'|\
    'changes|--api-version'|\
    'changes|-o'|\
    'changes|--output'|\
    'changes|--jq'|\
    'changes|--timeout'|\
    'find|--columns'|\
    'find|--db'|\
    'find|--profile'|\
    'find|--base-url'|\
    'find|--api-version'|\
    'find|-o'|\
    'find|--output'|\
    'find|--jq'|\
    'find|--timeout'|\
    'notify|--profile'|\
    'notify|--base-url'|\
    'notify|--api-version'|\
    'notify|-o'|\
    'notify|--output'|\
    'notify|--jq'|\
    'notify|--timeout'|\
    'notify list|--db'|\
    'notify list|--profile'|\
    'notify list|--base-url'|\
    'notify list|--api-version'|\
    'notify list|-o'|\
    'notify list|--output'|\
    'notify list|--jq'|\
    'notify list|--timeout'|\
    'notify add|--when'|\
    'notify add|--stuck'|\
    'notify add|--carrier'|\
    'notify add|--tag'|\
    'notify add|--to'|\
    'notify add|--template'|\
    'notify add|--db'|\
    'notify add|--profile'|\
    'notify add|--base-url'|\
    'notify add|--api-version'|\
    'notify add|-o'|\
    'notify add|--output'|\
    'notify add|--jq'|\
    'notify add|--timeout'|\
    'notify remove|--db'|\
    'notify remove|--profile'|\
    'notify remove|--base-url'|\
    'notify remove|--api-version'|\
    'notify remove|-o'|\
    'notify remove|--output'|\
    'notify remove|--jq'|\
    'notify remove|--timeout'|\
    'notify test|--to'|\
    'notify test|--db'|\
    'notify test|--profile'|\
    'notify test|--base-url'|\
    'notify test|--api-version'|\
    'notify test|-o'|\
    'notify test|--output'|\
    'notify test|--jq'|\
    'notify test|--timeout'|\
    'notify run|--pace'|\
    'notify run|--rule'|\
    'notify run|--db'|\
    'notify run|--profile'|\
    'notify run|--base-url'|\
    'notify run|--api-version'|\
    'notify run|-o'|\
    'notify run|--output'|\
    'notify run|--jq'|\
    'notify run|--timeout'|\
    'report|--by'|\
    'report|--since'|\
    'report|--carrier'|\
    'report|--from'|\
    'report|--to'|\
    'report|--stuck-days'|\
    'report|--html'|\
    'report|--db'|\
    'report|--profile'|\
    'report|--base-url'|\
    'report|--api-version'|\
    'report|-o'|\
    'report|--output'|\
    'report|--jq'|\
    'report|--timeout'|\
    'sync|--db'|\
    'sync|--profile'|\
    'sync|--base-url'|\
    'sync|--api-version'|\
    'sync|-o'|\
    'sync|--output'|\
    'sync|--jq'|\
    'sync|--timeout'|\
    'auth|--profile'|\
    'auth|--base-url'|\
    'auth|--api-version'|\
    'auth|-o'|\
    'auth|--output'|\
    'auth|--jq'|\
    'auth|--timeout'|\
    'auth login|--profile'|\
    'auth login|--base-url'|\
    'auth login|--api-version'|\
    'auth login|-o'|\
    'auth login|--output'|\
    'auth login|--jq'|\
    'auth login|--timeout'|\
    'auth switch|--profile'|\
    'auth switch|--base-url'|\
    'auth switch|--api-version'|\
    'auth switch|-o'|\
    'auth switch|--output'|\
    'auth switch|--jq'|\
    'auth switch|--timeout'|\
    'auth list|--profile'|\
    'auth list|--base-url'|\
    'auth list|--api-version'|\
    'auth list|-o'|\
    'auth list|--output'|\
    'auth list|--jq'|\
    'auth list|--timeout'|\
    'auth status|--profile'|\
    'auth status|--base-url'|\
    'auth status|--api-version'|\
    'auth status|-o'|\
    'auth status|--output'|\
    'auth status|--jq'|\
    'auth status|--timeout'|\
    'auth logout|--profile'|\
    'auth logout|--base-url'|\
    'auth logout|--api-version'|\
    'auth logout|-o'|\
    'auth logout|--output'|\
    'auth logout|--jq'|\
    'auth logout|--timeout'|\
    'config|--profile'|\
    'config|--base-url'|\
    'config|--api-version'|\
    'config|-o'|\
    'config|--output'|\
    'config|--jq'|\
    'config|--timeout'|\
    'config get|--profile'|\
    'config get|--base-url'|\
    'config get|--api-version'|\
    'config get|-o'|\
    'config get|--output'|\
    'config get|--jq'|\
    'config get|--timeout'|\
    'config set|--profile'|\
    'config set|--base-url'|\
    'config set|--api-version'|\
    'config set|-o'|\
    'config set|--output'|\
    'config set|--jq'|\
    'config set|--timeout'|\
    'config unset|--profile'|\
    'config unset|--base-url'|\
    'config unset|--api-version'|\
    'config unset|-o'|\
    'config unset|--output'|\
    'config unset|--jq'|\
    'config unset|--timeout'|\
    'config list|--profile'|\
    'config list|--base-url'|\
    'config list|--api-version'|\
    'config list|-o'|\
    'config list|--output'|\
    'config list|--jq'|\
    'config list|--timeout'|\
    'quota|--columns'|\
    'quota|--profile'|\
    'quota|--base-url'|\
    'quota|--api-version'|\
    'quota|-o'|\
    'quota|--output'|\
    'quota|--jq'|\
    'quota|--timeout'|\
    'runs|--profile'|\
    'runs|--base-url'|\
    'runs|--api-version'|\
    'runs|-o'|\
    'runs|--output'|\
    'runs|--jq'|\
    'runs|--timeout'|\
    'runs list|--columns'|\
    'runs list|--profile'|\
    'runs list|--base-url'|\
    'runs list|--api-version'|\
    'runs list|-o'|\
    'runs list|--output'|\
    'runs list|--jq'|\
    'runs list|--timeout'|\
    'runs forget|--profile'|\
    'runs forget|--base-url'|\
    'runs forget|--api-version'|\
    'runs forget|-o'|\
    'runs forget|--output'|\
    'runs forget|--jq'|\
    'runs forget|--timeout'|\
    'sandbox|--profile'|\
    'sandbox|--base-url'|\
    'sandbox|--api-version'|\
    'sandbox|-o'|\
    'sandbox|--output'|\
    'sandbox|--jq'|\
    'sandbox|--timeout'|\
    'sandbox start|--port'|\
    'sandbox start|--host'|\
    'sandbox start|--key'|\
    'sandbox start|--webhook'|\
    'sandbox start|--speed'|\
    'sandbox start|--state'|\
    'sandbox start|--start'|\
    'sandbox start|--latency'|\
    'sandbox start|--jitter'|\
    'sandbox start|--failure-rate'|\
    'sandbox start|--drop-rate'|\
    'sandbox start|--burst-429'|\
    'sandbox start|--burst-every'|\
    'sandbox start|--burst-for'|\
    'sandbox start|--page-overlap'|\
    'sandbox start|--rate-limit'|\
    'sandbox start|--quota'|\
    'sandbox start|--daily-cap'|\
    'sandbox start|--ip-allow'|\
    'sandbox start|--tick'|\
    'sandbox start|--seed'|\
    'sandbox start|--profile'|\
    'sandbox start|--base-url'|\
    'sandbox start|--api-version'|\
    'sandbox start|-o'|\
    'sandbox start|--output'|\
    'sandbox start|--jq'|\
    'sandbox start|--timeout'|\
    'sandbox reset|--state'|\
    'sandbox reset|--profile'|\
    'sandbox reset|--base-url'|\
    'sandbox reset|--api-version'|\
    'sandbox reset|-o'|\
    'sandbox reset|--output'|\
    'sandbox reset|--jq'|\
    'sandbox reset|--timeout'|\
    'webhook|--profile'|\
    'webhook|--base-url'|\
    'webhook|--api-version'|\
    'webhook|-o'|\
    'webhook|--output'|\
    'webhook|--jq'|\
    'webhook|--timeout'|\
    'webhook verify|--body'|\
    'webhook verify|--headers'|\
    'webhook verify|--sign'|\
    'webhook verify|--profile'|\
    'webhook verify|--base-url'|\
    'webhook verify|--api-version'|\
    'webhook verify|-o'|\
    'webhook verify|--output'|\
    'webhook verify|--jq'|\
    'webhook verify|--timeout'|\
    'webhook listen|--port'|\
    'webhook listen|--host'|\
    'webhook listen|--path'|\
    'webhook listen|--forward-to'|\
    'webhook listen|--save'|\
    'webhook listen|--db'|\
    'webhook listen|--profile'|\
    'webhook listen|--base-url'|\
    'webhook listen|--api-version'|\
    'webhook listen|-o'|\
    'webhook listen|--output'|\
    'webhook listen|--jq'|\
    'webhook listen|--timeout'|\
    'webhook replay|--forward-to'|\
    'webhook replay|--profile'|\
    'webhook replay|--base-url'|\
    'webhook replay|--api-version'|\
    'webhook replay|-o'|\
    'webhook replay|--output'|\
    'webhook replay|--jq'|\
    'webhook replay|--timeout'|\
    'webhook trigger|--number'|\
    'webhook trigger|--carrier'|\
    'webhook trigger|--sub-status'|\
    'webhook trigger|--event'|\
    'webhook trigger|--to'|\
    'webhook trigger|--db'|\
    'webhook trigger|--profile'|\
    'webhook trigger|--base-url'|\
    'webhook trigger|--api-version'|\
    'webhook trigger|-o'|\
    'webhook trigger|--output'|\
    'webhook trigger|--jq'|\
    'webhook trigger|--timeout'|\
    'api|-d'|\
    'api|--data'|\
    'api|--profile'|\
    'api|--base-url'|\
    'api|--api-version'|\
    'api|-o'|\
    'api|--output'|\
    'api|--jq'|\
    'api|--timeout'|\
    'carriers|--carrier-map'|\
    'carriers|--columns'|\
    'carriers|--profile'|\
    'carriers|--base-url'|\
    'carriers|--api-version'|\
    'carriers|-o'|\
    'carriers|--output'|\
    'carriers|--jq'|\
    'carriers|--timeout'|\
    'completion|--profile'|\
    'completion|--base-url'|\
    'completion|--api-version'|\
    'completion|-o'|\
    'completion|--output'|\
    'completion|--jq'|\
    'completion|--timeout'|\
    'countries|--columns'|\
    'countries|--profile'|\
    'countries|--base-url'|\
    'countries|--api-version'|\
    'countries|-o'|\
    'countries|--output'|\
    'countries|--jq'|\
    'countries|--timeout'|\
    'help|--profile'|\
    'help|--base-url'|\
    'help|--api-version'|\
    'help|-o'|\
    'help|--output'|\
    'help|--jq'|\
    'help|--timeout') return 0 ;;
  esac
  return 1
}
_trk_dynamic() {
  case "$1|$2" in
    '|--profile'|\
    'change-carrier|--to'|\
    'change-carrier|--from'|\
    'change-carrier|--final-to'|\
    'change-carrier|--final-from'|\
    'change-carrier|--profile'|\
    'delete|--carrier'|\
    'delete|--profile'|\
    'info|--carrier'|\
    'info|--profile'|\
    'list|--carrier'|\
    'list|--profile'|\
    'push|--carrier'|\
    'push|--profile'|\
    'realtime|--carrier'|\
    'realtime|--final-carrier'|\
    'realtime|--profile'|\
    'register|--carrier'|\
    'register|--final-carrier'|\
    'register|--profile'|\
    'retrack|--carrier'|\
    'retrack|--profile'|\
    'stop|--carrier'|\
    'stop|--profile'|\
    'update|--carrier'|\
    'update|--profile'|\
    'changes|--profile'|\
    'find|--profile'|\
    'notify|--profile'|\
    'notify list|--profile'|\
    'notify add|--carrier'|\
    'notify add|--profile'|\
    'notify remove|--profile'|\
    'notify test|--profile'|\
    'notify run|--profile'|\
    'report|--carrier'|\
    'report|--profile'|\
    'sync|--profile'|\
    'auth|--profile'|\
    'auth login|--profile'|\
    'auth switch|--profile'|\
    'auth list|--profile'|\
    'auth status|--profile'|\
    'auth logout|--profile'|\
    'config|--profile'|\
    'config get|--profile'|\
    'config set|--profile'|\
    'config unset|--profile'|\
    'config list|--profile'|\
    'quota|--profile'|\
    'runs|--profile'|\
    'runs list|--profile'|\
    'runs forget|--profile'|\
    'sandbox|--profile'|\
    'sandbox start|--profile'|\
    'sandbox reset|--profile'|\
    'webhook|--profile'|\
    'webhook verify|--profile'|\
    'webhook listen|--profile'|\
    'webhook replay|--profile'|\
    'webhook trigger|--carrier'|\
    'webhook trigger|--profile'|\
    'api|--profile'|\
    'carriers|--profile'|\
    'completion|--profile'|\
    'countries|--profile'|\
    'help|--profile') return 0 ;;
  esac
  return 1
}
_trk_values() {
  case "$1|$2" in
    '|--profile') trk __complete profiles 2>/dev/null ;;
    '|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    '|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    '|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'change-carrier|--to') trk __complete carriers 2>/dev/null ;;
    'change-carrier|--from') trk __complete carriers 2>/dev/null ;;
    'change-carrier|--final-to') trk __complete carriers 2>/dev/null ;;
    'change-carrier|--final-from') trk __complete carriers 2>/dev/null ;;
    'change-carrier|--columns') printf '%s\n' 'number' 'carrier' 'result' 'error_code' 'error_message' 'tag' ;;
    'change-carrier|--profile') trk __complete profiles 2>/dev/null ;;
    'change-carrier|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'change-carrier|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'change-carrier|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'delete|--carrier') trk __complete carriers 2>/dev/null ;;
    'delete|--columns') printf '%s\n' 'number' 'carrier' 'result' 'error_code' 'error_message' 'tag' ;;
    'delete|--profile') trk __complete profiles 2>/dev/null ;;
    'delete|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'delete|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'delete|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'info|--carrier') trk __complete carriers 2>/dev/null ;;
    'info|--status') printf '%s\n' 'NotFound' 'InfoReceived' 'InTransit' 'Expired' 'AvailableForPickup' 'OutForDelivery' 'DeliveryFailure' 'Delivered' 'Exception' ;;
    'info|--sub-status') printf '%s\n' 'NotFound_Other' 'NotFound_InvalidCode' 'InfoReceived' 'InTransit_PickedUp' 'InTransit_Other' 'InTransit_Departure' 'InTransit_Arrival' 'Expired_Other' 'AvailableForPickup_Other' 'OutForDelivery_Other' 'DeliveryFailure_Other' 'DeliveryFailure_NoBody' 'DeliveryFailure_Security' 'DeliveryFailure_Rejected' 'DeliveryFailure_InvalidAddress' 'Delivered_Other' 'Exception_Other' 'Exception_Returning' 'Exception_Returned' 'Exception_NoBody' 'Exception_Security' 'Exception_Damage' 'Exception_Rejected' 'Exception_Delayed' 'Exception_Lost' 'Exception_Destroyed' 'Exception_Cancel' 'InTransit_CustomsProcessing' 'InTransit_CustomsReleased' 'InTransit_CustomsRequiringInformation' ;;
    'info|--columns') printf '%s\n' 'number' 'carrier' 'final_carrier' 'status' 'sub_status' 'latest_event_time' 'latest_event' 'latest_location' 'age' 'expected' 'origin' 'destination' 'days_after_order' 'days_of_transit' 'days_after_last_update' 'eta_from' 'eta_to' 'delivered' 'customs' 'events' 'tag' 'latest_event_time_raw' 'delivered_raw' 'result' 'error_code' 'error_message' ;;
    'info|--profile') trk __complete profiles 2>/dev/null ;;
    'info|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'info|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'info|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'list|--status') printf '%s\n' 'NotFound' 'InfoReceived' 'InTransit' 'Expired' 'AvailableForPickup' 'OutForDelivery' 'DeliveryFailure' 'Delivered' 'Exception' ;;
    'list|--carrier') trk __complete carriers 2>/dev/null ;;
    'list|--tracking') printf '%s\n' 'Tracking' 'Stopped' ;;
    'list|--origin') printf '%s\n' 'Api' 'Manual' 'Import' ;;
    'list|--push-status') printf '%s\n' 'NotPushed' 'Success' 'Failure' ;;
    'list|--sub-status') printf '%s\n' 'NotFound_Other' 'NotFound_InvalidCode' 'InfoReceived' 'InTransit_PickedUp' 'InTransit_Other' 'InTransit_Departure' 'InTransit_Arrival' 'Expired_Other' 'AvailableForPickup_Other' 'OutForDelivery_Other' 'DeliveryFailure_Other' 'DeliveryFailure_NoBody' 'DeliveryFailure_Security' 'DeliveryFailure_Rejected' 'DeliveryFailure_InvalidAddress' 'Delivered_Other' 'Exception_Other' 'Exception_Returning' 'Exception_Returned' 'Exception_NoBody' 'Exception_Security' 'Exception_Damage' 'Exception_Rejected' 'Exception_Delayed' 'Exception_Lost' 'Exception_Destroyed' 'Exception_Cancel' 'InTransit_CustomsProcessing' 'InTransit_CustomsReleased' 'InTransit_CustomsRequiringInformation' ;;
    'list|--order-by') printf '%s\n' 'RegisterTimeAsc' 'RegisterTimeDesc' 'PushTimeAsc' 'PushTimeDesc' 'TrackTimeAsc' 'TrackTimeDesc' ;;
    'list|--columns') printf '%s\n' 'number' 'carrier' 'final_carrier' 'status' 'tracking' 'registered' 'tracked' 'pushed' 'push_status' 'push_code' 'stopped' 'stop_reason' 'retracked' 'carrier_changes' 'tag' 'origin_country' 'destination_country' 'latest_event_time' 'latest_event' 'days_after_order' 'days_of_transit' 'delivered' 'order_no' 'remark' 'email' 'delivered_raw' ;;
    'list|--profile') trk __complete profiles 2>/dev/null ;;
    'list|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'list|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'list|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'push|--carrier') trk __complete carriers 2>/dev/null ;;
    'push|--columns') printf '%s\n' 'number' 'carrier' 'result' 'error_code' 'error_message' 'tag' ;;
    'push|--profile') trk __complete profiles 2>/dev/null ;;
    'push|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'push|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'push|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'realtime|--carrier') trk __complete carriers 2>/dev/null ;;
    'realtime|--final-carrier') trk __complete carriers 2>/dev/null ;;
    'realtime|--columns') printf '%s\n' 'number' 'carrier' 'final_carrier' 'status' 'sub_status' 'latest_event_time' 'latest_event' 'latest_location' 'age' 'expected' 'origin' 'destination' 'days_after_order' 'days_of_transit' 'days_after_last_update' 'eta_from' 'eta_to' 'delivered' 'customs' 'events' 'tag' 'latest_event_time_raw' 'delivered_raw' 'result' 'error_code' 'error_message' ;;
    'realtime|--profile') trk __complete profiles 2>/dev/null ;;
    'realtime|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'realtime|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'realtime|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'register|--carrier') trk __complete carriers 2>/dev/null ;;
    'register|--lang') printf '%s\n' 'en' 'ja' 'fr' 'da' 'th' 'de' 'es' 'zh-hans' ;;
    'register|--final-carrier') trk __complete carriers 2>/dev/null ;;
    'register|--columns') printf '%s\n' 'number' 'carrier' 'origin' 'result' 'error_code' 'error_message' 'tag' ;;
    'register|--profile') trk __complete profiles 2>/dev/null ;;
    'register|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'register|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'register|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'retrack|--carrier') trk __complete carriers 2>/dev/null ;;
    'retrack|--columns') printf '%s\n' 'number' 'carrier' 'result' 'error_code' 'error_message' 'tag' ;;
    'retrack|--profile') trk __complete profiles 2>/dev/null ;;
    'retrack|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'retrack|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'retrack|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'stop|--carrier') trk __complete carriers 2>/dev/null ;;
    'stop|--columns') printf '%s\n' 'number' 'carrier' 'result' 'error_code' 'error_message' 'tag' ;;
    'stop|--profile') trk __complete profiles 2>/dev/null ;;
    'stop|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'stop|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'stop|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'update|--carrier') trk __complete carriers 2>/dev/null ;;
    'update|--lang') printf '%s\n' 'en' 'ja' 'fr' 'da' 'th' 'de' 'es' 'zh-hans' ;;
    'update|--columns') printf '%s\n' 'number' 'carrier' 'result' 'error_code' 'error_message' 'tag' ;;
    'update|--profile') trk __complete profiles 2>/dev/null ;;
    'update|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'update|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'update|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'changes|--columns') printf '%s\n' 'id' 'detected_at' 'number' 'carrier' 'from' 'to' 'from_sub_status' 'to_sub_status' 'event_time' 'source' 'tag' 'email' 'order_no' 'customer' ;;
    'changes|--status') printf '%s\n' 'NotFound' 'InfoReceived' 'InTransit' 'Expired' 'AvailableForPickup' 'OutForDelivery' 'DeliveryFailure' 'Delivered' 'Exception' ;;
    'changes|--profile') trk __complete profiles 2>/dev/null ;;
    'changes|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'changes|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'changes|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'find|--columns') printf '%s\n' 'number' 'carrier' 'final_carrier' 'status' 'sub_status' 'latest_event_time' 'latest_event' 'latest_location' 'age' 'expected' 'origin' 'destination' 'days_after_order' 'days_of_transit' 'days_after_last_update' 'eta_from' 'eta_to' 'delivered' 'customs' 'events' 'tag' 'latest_event_time_raw' 'delivered_raw' 'result' 'error_code' 'error_message' 'email' 'order_no' 'customer' ;;
    'find|--profile') trk __complete profiles 2>/dev/null ;;
    'find|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'find|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'find|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify|--profile') trk __complete profiles 2>/dev/null ;;
    'notify|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'notify|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify list|--profile') trk __complete profiles 2>/dev/null ;;
    'notify list|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'notify list|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify list|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify add|--when') printf '%s\n' 'NotFound' 'InfoReceived' 'InTransit' 'Expired' 'AvailableForPickup' 'OutForDelivery' 'DeliveryFailure' 'Delivered' 'Exception' ;;
    'notify add|--carrier') trk __complete carriers 2>/dev/null ;;
    'notify add|--profile') trk __complete profiles 2>/dev/null ;;
    'notify add|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'notify add|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify add|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify remove|--profile') trk __complete profiles 2>/dev/null ;;
    'notify remove|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'notify remove|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify remove|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify test|--profile') trk __complete profiles 2>/dev/null ;;
    'notify test|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'notify test|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify test|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify run|--profile') trk __complete profiles 2>/dev/null ;;
    'notify run|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'notify run|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'notify run|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'report|--by') printf '%s\n' 'carrier' 'lane' 'carrier,lane' 'week' 'month' ;;
    'report|--carrier') trk __complete carriers 2>/dev/null ;;
    'report|--profile') trk __complete profiles 2>/dev/null ;;
    'report|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'report|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'report|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sync|--profile') trk __complete profiles 2>/dev/null ;;
    'sync|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'sync|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sync|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth|--profile') trk __complete profiles 2>/dev/null ;;
    'auth|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'auth|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth login|--profile') trk __complete profiles 2>/dev/null ;;
    'auth login|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'auth login|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth login|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth switch|--profile') trk __complete profiles 2>/dev/null ;;
    'auth switch|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'auth switch|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth switch|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth list|--profile') trk __complete profiles 2>/dev/null ;;
    'auth list|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'auth list|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth list|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth status|--profile') trk __complete profiles 2>/dev/null ;;
    'auth status|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'auth status|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth status|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth logout|--profile') trk __complete profiles 2>/dev/null ;;
    'auth logout|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'auth logout|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'auth logout|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config|--profile') trk __complete profiles 2>/dev/null ;;
    'config|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'config|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config get|--profile') trk __complete profiles 2>/dev/null ;;
    'config get|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'config get|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config get|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config set|--profile') trk __complete profiles 2>/dev/null ;;
    'config set|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'config set|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config set|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config unset|--profile') trk __complete profiles 2>/dev/null ;;
    'config unset|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'config unset|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config unset|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config list|--profile') trk __complete profiles 2>/dev/null ;;
    'config list|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'config list|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'config list|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'quota|--columns') printf '%s\n' 'quota_total' 'quota_used' 'quota_remain' 'today_used' 'max_track_daily' 'free_email_quota' 'free_email_quotaused' ;;
    'quota|--profile') trk __complete profiles 2>/dev/null ;;
    'quota|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'quota|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'quota|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'runs|--profile') trk __complete profiles 2>/dev/null ;;
    'runs|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'runs|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'runs|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'runs list|--columns') printf '%s\n' 'id' 'state' 'command' 'input' 'when' 'done' 'account' ;;
    'runs list|--profile') trk __complete profiles 2>/dev/null ;;
    'runs list|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'runs list|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'runs list|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'runs forget|--profile') trk __complete profiles 2>/dev/null ;;
    'runs forget|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'runs forget|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'runs forget|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sandbox|--profile') trk __complete profiles 2>/dev/null ;;
    'sandbox|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'sandbox|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sandbox|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sandbox start|--profile') trk __complete profiles 2>/dev/null ;;
    'sandbox start|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'sandbox start|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sandbox start|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sandbox reset|--profile') trk __complete profiles 2>/dev/null ;;
    'sandbox reset|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'sandbox reset|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'sandbox reset|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook|--profile') trk __complete profiles 2>/dev/null ;;
    'webhook|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'webhook|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook verify|--profile') trk __complete profiles 2>/dev/null ;;
    'webhook verify|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'webhook verify|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook verify|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook listen|--profile') trk __complete profiles 2>/dev/null ;;
    'webhook listen|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'webhook listen|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook listen|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook replay|--profile') trk __complete profiles 2>/dev/null ;;
    'webhook replay|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'webhook replay|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook replay|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook trigger|--carrier') trk __complete carriers 2>/dev/null ;;
    'webhook trigger|--event') printf '%s\n' 'TRACKING_UPDATED' 'TRACKING_STOPPED' ;;
    'webhook trigger|--profile') trk __complete profiles 2>/dev/null ;;
    'webhook trigger|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'webhook trigger|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'webhook trigger|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'api|--profile') trk __complete profiles 2>/dev/null ;;
    'api|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'api|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'api|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'carriers|--columns') printf '%s\n' 'key' 'name' 'country' 'url' ;;
    'carriers|--profile') trk __complete profiles 2>/dev/null ;;
    'carriers|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'carriers|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'carriers|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'completion|--profile') trk __complete profiles 2>/dev/null ;;
    'completion|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'completion|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'completion|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'countries|--columns') printf '%s\n' 'key' 'iso' 'name' ;;
    'countries|--profile') trk __complete profiles 2>/dev/null ;;
    'countries|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'countries|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'countries|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'help|--profile') trk __complete profiles 2>/dev/null ;;
    'help|--api-version') printf '%s\n' 'v1' 'v2' 'v2.1' ;;
    'help|-o') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
    'help|--output') printf '%s\n' 'table' 'wide' 'json' 'ndjson' 'csv' 'ids' 'text' ;;
  esac
}
_trk_path() {
  # Arguments: the words typed before the current one, without the program name.
  local trail="" w
  for w in "$@"; do
    case "$w" in -*) continue ;; esac
    if _trk_subcommands "$trail" | cut -d: -f1 | grep -qxF -- "$w"; then
      trail="${trail:+$trail }$w"
    fi
  done
  printf %s "$trail"
}
# The values on stdin (one a line; a TAB and a description may follow) that complete the word $1, any case.
# Lists (--columns number,status,...): the value after the last comma is completed, and values already in the
# list are not offered again. Values with spaces (carrier names) are escaped.
_trk_offer() {
  local cur="$1" head="" word value
  [[ "$cur" == *,* ]] && head="${cur%,*},"
  word="${cur##*,}"
  COMPREPLY=()
  while IFS= read -r value; do
    value="${value%%$'	'*}"
    [ -n "$value" ] || continue
    [[ ",$head" == *",$value,"* ]] && continue
    [[ "${value,,}" == "${word,,}"* ]] || continue
    printf -v value '%q' "$head$value"
    COMPREPLY+=("${value//\\,/,}")
  done
}
_trk_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
  local trail values subs
  trail="$(_trk_path "${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  if [ "$COMP_CWORD" -gt 1 ] && _trk_takes_value "$trail" "$prev"; then
    values="$(_trk_values "$trail" "$prev")"
    if [ -n "$values" ]; then
      _trk_offer "$cur" <<< "$values"
    elif ! _trk_dynamic "$trail" "$prev"; then
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_trk_options "$trail")" -- "$cur")
    return 0
  fi
  subs="$(_trk_subcommands "$trail")"
  [ -n "$subs" ] || subs="$(_trk_argument_values "$trail")"
  if [ -n "$subs" ]; then
    mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -F _trk_complete trk
