package org.jvmreuse.hadoop.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop.counters.TaskLaunchCountingEngine;

/**
 * Every Hadoop name the resets and hooks use exists in Hadoop 2.2.0, the Hadoop on this class
 * path (names-check/pom.xml runs the same check against another version's jars).
 */
class HadoopNamesTest {
    private final HadoopNamesCheck check = new HadoopNamesCheck(HadoopNamesTest.class.getClassLoader());

    @Test
    void everyNameIsInThisHadoop() {
        Map<String, Set<HadoopName>> names = HadoopNamesCheck.names(HadoopNames.class);
        assertTrue(names.containsKey("FileSystemReset") && names.containsKey("TaskLaunchCountingEngine"), "users: " + names.keySet());
        names.forEach((user, own) -> assertFalse(own.isEmpty(), user + " has no names"));
        assertEquals(Map.of(), check.problems(HadoopNames.class));
    }

    /** A table whose names Hadoop 2.2.0 lacks, or has otherwise than the code would use them. */
    static final class Wrong {
        private static final ClassName FILE_SYSTEM = new ClassName("org.apache.hadoop.fs.FileSystem");

        public static final class SomeReset {
            public static final ClassName NO_CLASS = new ClassName("org.apache.hadoop.fs.FileSystemm");
            public static final FieldName NO_FIELD = FILE_SYSTEM.staticField("CACHEE", "java.lang.Object");
            public static final FieldName IN_NO_CLASS = NO_CLASS.staticField("CACHE", "java.lang.Object");
            public static final FieldName NOT_STATIC = FILE_SYSTEM.staticField("statistics", "java.lang.Object");
            public static final FieldName STATIC = FILE_SYSTEM.field("CACHE", "java.lang.Object");
            public static final FieldName OTHER_TYPE = FILE_SYSTEM.staticField("statisticsTable", "java.util.List");
            public static final FieldName OTHER_PRIMITIVE = FILE_SYSTEM.settableStaticField("symlinkEnabled", "int");
            public static final FieldName FINAL = FILE_SYSTEM.settableStaticField("CACHE", "java.lang.Object");
            public static final FieldName NO_TYPE = FILE_SYSTEM.staticField("CACHE", "org.apache.hadoop.fs.NoSuchType");
            public static final MethodName NO_METHOD = FILE_SYSTEM.staticMethod("closeAlll");
            public static final MethodName NO_CONSTRUCTOR = new ClassName("org.apache.hadoop.fs.Path").constructor();
        }

        public static final class SomeHook {
            public static final Overloads ONE_MISSING_ONE_MORE = new Overloads(FILE_SYSTEM, "get",
                    List.of(List.of("org.apache.hadoop.conf.Configuration"), List.of("java.net.URI", "int")));
        }

        public static final class GoodUser {
            public static final List<ClassName> FINE = List.of(FILE_SYSTEM);
        }
    }

    @Test
    void namesAMissingOrChangedNameByItsUser() {
        assertEquals(Map.of(
                "SomeReset", List.of(
                        "no class org.apache.hadoop.fs.FileSystemm",
                        "no field org.apache.hadoop.fs.FileSystem.CACHEE",
                        "no class org.apache.hadoop.fs.FileSystemm (for org.apache.hadoop.fs.FileSystemm.CACHE)",
                        "org.apache.hadoop.fs.FileSystem.statistics is not static",
                        "org.apache.hadoop.fs.FileSystem.CACHE is static",
                        "org.apache.hadoop.fs.FileSystem.statisticsTable is a java.util.Map, not a java.util.List",
                        "org.apache.hadoop.fs.FileSystem.symlinkEnabled is a boolean, not a int",
                        "org.apache.hadoop.fs.FileSystem.CACHE is final: it cannot be set",
                        "no class org.apache.hadoop.fs.NoSuchType (the type of org.apache.hadoop.fs.FileSystem.CACHE)",
                        "no method org.apache.hadoop.fs.FileSystem.closeAlll()",
                        "no constructor org.apache.hadoop.fs.Path()"),
                "SomeHook", List.of(
                        "no method org.apache.hadoop.fs.FileSystem.get(java.net.URI, int); "
                                + "org.apache.hadoop.fs.FileSystem.get(java.net.URI, org.apache.hadoop.conf.Configuration)"
                                + " is not one the hook overrides; "
                                + "org.apache.hadoop.fs.FileSystem.get(java.net.URI, org.apache.hadoop.conf.Configuration,"
                                + " java.lang.String) is not one the hook overrides")),
                check.problems(Wrong.class));
    }

    @Test
    void theLaunchCountersEngineOverridesEveryGetProxyItNames() {
        assertNull(new HadoopNamesCheck(HadoopNamesTest.class.getClassLoader())
                .notOverridden(TaskLaunchCountingEngine.class, HadoopNames.TaskLaunchCountingEngine.GET_PROXY));
    }
}
