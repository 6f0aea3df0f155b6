package org.jvmreuse.pool.slot;

import java.util.IllformedLocaleException;
import java.util.Locale;
import java.util.Properties;

/**
 * The default locales a new JVM would make from a run's properties, as {@code Locale.initDefault}
 * does: {@code user.language}, {@code user.region} (or {@code user.script}, {@code user.country},
 * {@code user.variant}), and per category {@code user.language.display} and so on, each falling
 * back to the default's part. The properties hold what the JVM derived from the environment at
 * start-up; the slot's only serve a run whose C library locale is the slot's.
 */
final class RunLocale {
    /** The default locale and those of the display and format categories. */
    record Defaults(Locale all, Locale display, Locale format) {
        void apply() {
            Locale.setDefault(all);
            Locale.setDefault(Locale.Category.DISPLAY, display);
            Locale.setDefault(Locale.Category.FORMAT, format);
        }
    }

    private RunLocale() {
    }

    static Defaults of(Properties properties) {
        if (properties.stringPropertyNames().stream().anyMatch(name -> name.startsWith("user.extensions"))) {
            throw new Refused("-Duser.extensions: only a new JVM applies locale extensions");
        }
        String language = properties.getProperty("user.language", "en");
        String region = properties.getProperty("user.region");
        String script;
        String country;
        String variant;
        if (region != null) {
            int underscore = region.indexOf('_');
            country = underscore >= 0 ? region.substring(0, underscore) : region;
            variant = underscore >= 0 ? region.substring(underscore + 1) : "";
            script = "";
        } else {
            script = properties.getProperty("user.script", "");
            country = properties.getProperty("user.country", "");
            variant = properties.getProperty("user.variant", "");
        }
        Locale all = locale(language, script, country, variant);
        return new Defaults(all, category(properties, "display", all), category(properties, "format", all));
    }

    private static Locale category(Properties properties, String category, Locale all) {
        return locale(properties.getProperty("user.language." + category, all.getLanguage()),
                properties.getProperty("user.script." + category, all.getScript()),
                properties.getProperty("user.country." + category, all.getCountry()),
                properties.getProperty("user.variant." + category, all.getVariant()));
    }

    @SuppressWarnings("deprecation") // the JDK makes its default without the Builder's checks, as this constructor does
    private static Locale locale(String language, String script, String country, String variant) {
        if (script.isEmpty()) {
            return new Locale(language, country, variant);
        }
        try {
            return new Locale.Builder().setLanguage(language).setScript(script).setRegion(country).setVariant(variant).build();
        } catch (IllformedLocaleException e) {
            throw new Refused("the run's locale properties (" + e.getMessage() + "): only a new JVM applies them");
        }
    }
}
