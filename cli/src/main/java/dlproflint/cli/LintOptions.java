package dlproflint.cli;

import picocli.CommandLine.Mixin;

/**
 * The options of every command that lints ({@code lint}, {@code baseline}, {@code compare}, {@code job},
 * {@code report}), declared once: which rules run ({@link RuleOptions}), how profiles are read
 * ({@link ProfileOptions}) and {@code --debug} ({@link CommonOptions}).
 */
final class LintOptions {
    @Mixin
    RuleOptions rules = new RuleOptions();
    @Mixin
    ProfileOptions profile = new ProfileOptions();
    @Mixin
    CommonOptions common = new CommonOptions();
}
