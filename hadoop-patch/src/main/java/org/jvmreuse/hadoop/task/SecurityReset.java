package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.SecurityReset.GROUPS;
import static org.jvmreuse.hadoop.names.HadoopNames.SecurityReset.KEYTAB_FILE;
import static org.jvmreuse.hadoop.names.HadoopNames.SecurityReset.KEYTAB_PRINCIPAL;
import static org.jvmreuse.hadoop.names.HadoopNames.SecurityReset.SSL_FACTORY_RESET;
import static org.jvmreuse.hadoop.names.HadoopNames.SecurityReset.TOKEN_KINDS;
import static org.jvmreuse.hadoop.names.HadoopNames.SecurityReset.UGI_RESET;

/**
 * UserGroupInformation's statics: the login user (which holds the credentials read once from
 * HADOOP_TOKEN_FILE_LOCATION, so the next task reads its own token file), the configuration, the
 * authentication method, the group mapping and the Kerberos name rules; also the token kinds that
 * Token found through the run's loader, and (3.x) the default SSL socket factory, which the first
 * run that needs one makes with its own channel mode and every later one would get.
 */
final class SecurityReset {
    private SecurityReset() {
    }

    static void afterRun() {
        SharedClasses.loaded(UGI_RESET.owner()).ifPresent(ugi -> {
            synchronized (ugi) {
                // UGI's own test reset: auth method, conf, groups, login user, HadoopKerberosName rules
                Fields.callStatic(ugi, UGI_RESET);
                KEYTAB_PRINCIPAL.ifPresent(f -> Fields.setStatic(ugi, f, null));
                KEYTAB_FILE.ifPresent(f -> Fields.setStatic(ugi, f, null));
            }
        });
        SharedClasses.loaded(GROUPS.owner()).ifPresent(groups -> {
            synchronized (groups) {
                Fields.setStatic(groups, GROUPS, null);
            }
        });
        SharedClasses.loaded(TOKEN_KINDS.owner()).ifPresent(token ->
                Fields.setStatic(token, TOKEN_KINDS, null));
        SSL_FACTORY_RESET.ifPresent(reset -> SharedClasses.loaded(reset.owner()).ifPresent(factory ->
                Fields.callStatic(factory, reset)));
    }
}
