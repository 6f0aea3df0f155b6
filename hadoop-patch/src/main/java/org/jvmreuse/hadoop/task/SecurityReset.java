package org.jvmreuse.hadoop.task;

/**
 * UserGroupInformation's statics: the login user (which holds the credentials read once from
 * HADOOP_TOKEN_FILE_LOCATION, so the next task reads its own token file), the configuration, the
 * authentication method, the group mapping and the Kerberos name rules; also the token kinds that
 * Token found through the run's loader.
 */
final class SecurityReset {
    private SecurityReset() {
    }

    static void afterRun() {
        SharedClasses.loaded("org.apache.hadoop.security.UserGroupInformation").ifPresent(ugi -> {
            synchronized (ugi) {
                // UGI's own test reset: auth method, conf, groups, login user, HadoopKerberosName rules
                Fields.callStatic(ugi, "reset");
                Fields.setStatic(ugi, "keytabPrincipal", null);
                Fields.setStatic(ugi, "keytabFile", null);
            }
        });
        SharedClasses.loaded("org.apache.hadoop.security.Groups").ifPresent(groups -> {
            synchronized (groups) {
                Fields.setStatic(groups, "GROUPS", null);
            }
        });
        SharedClasses.loaded("org.apache.hadoop.security.token.Token").ifPresent(token ->
                Fields.setStatic(token, "tokenKindMap", null));
    }
}
