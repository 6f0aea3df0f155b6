package org.jvmreuse.pool.slot.globals;

import java.util.Locale;

/** {@code Locale.setDefault}, with and without a category (display and format are separate defaults). */
final class DefaultLocale implements GlobalState {
    @Override
    public String name() {
        return "default Locale";
    }

    @Override
    public Snapshot capture() {
        Locale all = Locale.getDefault();
        Locale display = Locale.getDefault(Locale.Category.DISPLAY);
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        return runLoader -> {
            Locale.setDefault(all); // sets the categories too
            Locale.setDefault(Locale.Category.DISPLAY, display);
            Locale.setDefault(Locale.Category.FORMAT, format);
            return null;
        };
    }
}
