// Present so that the build does not pick up the console's own instrumentation from the repository root.
export function register() {}
