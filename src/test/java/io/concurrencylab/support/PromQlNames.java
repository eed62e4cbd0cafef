package io.concurrencylab.support;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges and grouping
 * clauses are taken out, without the functions (a name followed by a parenthesis) and the language's keywords.
 * Enough for the lab's dashboard and rules, which {@link DashboardMetricsTest} checks against the app's metrics.
 */
public final class PromQlNames {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern NAME = Pattern.compile("(?<![\\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\\s*\\()");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan");

    private PromQlNames() {
    }

    public static Set<String> of(String expression) {
        String rest = STRING.matcher(expression).replaceAll(" ");
        rest = MATCHERS.matcher(rest).replaceAll(" ");
        rest = RANGE.matcher(rest).replaceAll(" ");
        rest = GROUPING.matcher(rest).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(rest);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group().toLowerCase())) {
                names.add(m.group());
            }
        }
        return names;
    }
}
