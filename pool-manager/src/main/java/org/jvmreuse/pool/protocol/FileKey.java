package org.jvmreuse.pool.protocol;

/**
 * The device and inode of a file (fstat's {@code st_dev} and {@code st_ino}), which name it on
 * its host whatever path leads to it. On the wire {@code DEVICE:INODE}, both unsigned decimal.
 */
public record FileKey(long device, long inode) {
    static FileKey parse(String text, String field) throws ProtocolException {
        int colon = text.indexOf(':');
        try {
            return new FileKey(Long.parseUnsignedLong(text.substring(0, colon)),
                    Long.parseUnsignedLong(text.substring(colon + 1)));
        } catch (IndexOutOfBoundsException | NumberFormatException e) {
            throw new ProtocolException("malformed " + field + " '" + text + "': expected DEVICE:INODE");
        }
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(device) + ":" + Long.toUnsignedString(inode);
    }
}
