package org.jvmreuse.hadoop.task.job;

import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;

/** Prints the services of the login user's tokens; gives it a token for the service {@code args[0]}, if given. */
public final class LoginTokens {
    public static void main(String[] args) throws Exception {
        UserGroupInformation login = UserGroupInformation.getLoginUser();
        Set<String> services = new TreeSet<>();
        for (Token<? extends TokenIdentifier> t : login.getCredentials().getAllTokens()) {
            services.add(t.getService().toString());
        }
        System.out.println("tokens=" + services);
        if (args.length > 0) {
            login.addToken(new Token<>(new byte[] {1}, new byte[] {2}, new Text("TEST_KIND"), new Text(args[0])));
        }
    }
}
