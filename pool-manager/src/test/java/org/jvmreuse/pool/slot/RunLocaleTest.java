package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The default locales made from a run's properties as Locale.initDefault makes them. */
class RunLocaleTest {
    private static RunLocale.Defaults of(Map<String, String> values) {
        Properties properties = new Properties();
        properties.putAll(values);
        return RunLocale.of(properties);
    }

    @Test
    void languageCountryAndCategoriesAsANewJvmReadsThem() {
        RunLocale.Defaults fr = of(Map.of("user.language", "fr", "user.country", "FR"));
        assertEquals(new RunLocale.Defaults(Locale.FRANCE, Locale.FRANCE, Locale.FRANCE), fr);
        RunLocale.Defaults split = of(Map.of("user.language", "de", "user.language.display", "ja"));
        assertEquals(new RunLocale.Defaults(Locale.GERMAN, Locale.JAPANESE, Locale.GERMAN), split);
        assertEquals(new Locale("en"), of(Map.of()).all(), "no user.language: en");
    }

    @Test
    void regionWinsOverCountryAndCarriesAVariant() {
        assertEquals(new Locale("pt", "BR", "POSIX"), of(Map.of("user.language", "pt", "user.region", "BR_POSIX",
                "user.country", "PT")).all());
        assertEquals("Latn", of(Map.of("user.language", "sr", "user.script", "Latn", "user.country", "RS")).all().getScript());
    }

    @Test
    void extensionsNeedANewJvm() {
        assertThrows(Refused.class, () -> of(Map.of("user.extensions", "u-ca-japanese")));
    }
}
