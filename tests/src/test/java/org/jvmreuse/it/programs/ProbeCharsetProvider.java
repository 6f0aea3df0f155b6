package org.jvmreuse.it.programs;

import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.charset.spi.CharsetProvider;
import java.util.Iterator;
import java.util.List;

/** A program's own charset provider: {@code x-jvmreuse-probe}, ISO-8859-1 under another name. */
public final class ProbeCharsetProvider extends CharsetProvider {
    static final String NAME = "x-jvmreuse-probe";

    @Override
    public Iterator<Charset> charsets() {
        return List.<Charset>of(new ProbeCharset()).iterator();
    }

    @Override
    public Charset charsetForName(String charsetName) {
        return NAME.equalsIgnoreCase(charsetName) ? new ProbeCharset() : null;
    }

    /** The provided charset. */
    public static final class ProbeCharset extends Charset {
        ProbeCharset() {
            super(NAME, null);
        }

        @Override
        public boolean contains(Charset cs) {
            return StandardCharsets.ISO_8859_1.contains(cs);
        }

        @Override
        public CharsetDecoder newDecoder() {
            return StandardCharsets.ISO_8859_1.newDecoder();
        }

        @Override
        public CharsetEncoder newEncoder() {
            return StandardCharsets.ISO_8859_1.newEncoder();
        }
    }
}
