package org.jvmreuse.hadoop.names;

import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the names of a table like {@link HadoopNames} (public static fields of its nested
 * classes: names, or lists of names) against the Hadoop a class loader sees: every class, field
 * and method exists, fields with the static-ness and type the code relies on, and settable static
 * fields not final. Classes are looked up without being initialised.
 */
public final class HadoopNamesCheck {
    private static final Map<String, Class<?>> PRIMITIVES = Map.of("boolean", boolean.class, "byte", byte.class,
            "char", char.class, "short", short.class, "int", int.class, "long", long.class, "float", float.class,
            "double", double.class);

    private final ClassLoader hadoop;

    public HadoopNamesCheck(ClassLoader hadoop) {
        this.hadoop = hadoop;
    }

    /**
     * Prints what the Hadoop on the class path lacks of {@link HadoopNames}, by user; exits 1 if
     * anything. Argument: the Hadoop version, for the report.
     */
    public static void main(String[] args) {
        String version = args.length > 0 ? args[0] : "on the class path";
        Map<String, List<String>> problems = new HadoopNamesCheck(HadoopNamesCheck.class.getClassLoader())
                .problems(HadoopNames.class);
        int names = names(HadoopNames.class).values().stream().mapToInt(Set::size).sum();
        int count = problems.values().stream().mapToInt(List::size).sum();
        problems.forEach((user, found) -> found.forEach(p -> System.out.println(user + ": " + p)));
        System.out.println("Hadoop " + version + ": " + count + " of " + names + " names missing or changed");
        if (count > 0) {
            System.exit(1);
        }
    }

    /** Each user (nested class) of {@code table} with what is wrong with its names; users without problems left out. */
    public Map<String, List<String>> problems(Class<?> table) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        names(table).forEach((user, names) -> {
            List<String> found = new ArrayList<>();
            for (HadoopName name : names) {
                String problem = problem(name);
                if (problem != null) {
                    found.add(problem);
                }
            }
            if (!found.isEmpty()) {
                problems.put(user, found);
            }
        });
        return problems;
    }

    /** The names of {@code table} by user, each user's in the order reflection lists its fields (HotSpot: as declared). */
    static Map<String, Set<HadoopName>> names(Class<?> table) {
        Map<String, Set<HadoopName>> names = new LinkedHashMap<>();
        for (Class<?> user : table.getDeclaredClasses()) {
            Set<HadoopName> own = new LinkedHashSet<>();
            for (Field f : user.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && Modifier.isPublic(f.getModifiers())) {
                    try {
                        collect(f.get(null), own);
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
            names.put(user.getSimpleName(), own);
        }
        return names;
    }

    private static void collect(Object value, Set<HadoopName> into) {
        if (value instanceof HadoopName name) {
            into.add(name);
        } else if (value instanceof Collection<?> values) {
            values.forEach(v -> collect(v, into));
        } else if (value instanceof java.util.Optional<?> name) { // empty: a name this version lacks on purpose
            name.ifPresent(v -> collect(v, into));
        }
    }

    /** What is wrong with {@code name} in this Hadoop, or null. */
    String problem(HadoopName name) {
        Class<?> owner = load(name.owner().name());
        if (owner == null) {
            return "no class " + name.owner() + (name instanceof ClassName ? "" : " (for " + name + ")");
        }
        try {
            if (name instanceof FieldName field) {
                return fieldProblem(owner, field);
            } else if (name instanceof MethodName method) {
                return methodProblem(owner, method);
            } else if (name instanceof Overloads overloads) {
                return overloadsProblem(owner, overloads);
            }
            return null;
        } catch (LinkageError e) {
            return "cannot read the members of " + owner.getName() + ": " + e;
        }
    }

    private String fieldProblem(Class<?> owner, FieldName name) {
        Field field;
        try {
            field = owner.getDeclaredField(name.name());
        } catch (NoSuchFieldException e) {
            return "no field " + name;
        }
        String problem = staticness(field, name.isStatic(), name.toString());
        if (problem != null) {
            return problem;
        }
        if (name.settable() && name.isStatic() && Modifier.isFinal(field.getModifiers())) {
            return name + " is final: it cannot be set";
        }
        Class<?> expected = load(name.type());
        if (expected == null) {
            return "no class " + name.type() + " (the type of " + name + ")";
        }
        Class<?> declared = field.getType();
        boolean related = expected.isPrimitive() || declared.isPrimitive() ? expected == declared
                : expected.isAssignableFrom(declared) || declared.isAssignableFrom(expected);
        return related ? null : name + " is a " + declared.getName() + ", not a " + expected.getName();
    }

    private static String methodProblem(Class<?> owner, MethodName name) {
        if (name.name().equals(MethodName.CONSTRUCTOR)) {
            try {
                owner.getDeclaredConstructor();
                return null;
            } catch (NoSuchMethodException e) {
                return "no constructor " + owner.getName() + "()";
            }
        }
        try {
            return staticness(owner.getDeclaredMethod(name.name()), name.isStatic(), name.toString());
        } catch (NoSuchMethodException e) {
            return "no method " + name;
        }
    }

    private static String overloadsProblem(Class<?> owner, Overloads name) {
        Set<List<String>> declared = new LinkedHashSet<>();
        boolean constructors = name.name().equals(MethodName.CONSTRUCTOR);
        for (Executable m : constructors ? owner.getDeclaredConstructors() : owner.getDeclaredMethods()) {
            if ((constructors || m.getName().equals(name.name())) && !m.isSynthetic()) {
                declared.add(Arrays.stream(m.getParameterTypes()).map(Class::getName).toList());
            }
        }
        List<String> problems = new ArrayList<>();
        for (List<String> signature : name.signatures()) {
            if (!declared.remove(signature)) {
                problems.add("no method " + name + signature(signature));
            }
        }
        String extraIs = constructors ? " is not one the code calls" : " is not one the hook overrides";
        declared.stream().map(extra -> name + signature(extra) + extraIs).sorted().forEach(problems::add);
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    private static String signature(List<String> parameters) {
        return "(" + String.join(", ", parameters) + ")";
    }

    private static String staticness(Member member, boolean isStatic, String name) {
        if (Modifier.isStatic(member.getModifiers()) == isStatic) {
            return null;
        }
        return name + (isStatic ? " is not static" : " is static");
    }

    /**
     * The overloads of {@code overloads} that {@code hook} (a class that overrides them) does not
     * declare, itself or a superclass of this library (not Hadoop's), as a problem; null if none.
     */
    public String notOverridden(Class<?> hook, Overloads overloads) {
        List<String> missing = new ArrayList<>();
        for (List<String> signature : overloads.signatures()) {
            Class<?>[] parameters = signature.stream().map(this::load).toArray(Class<?>[]::new);
            try {
                if (Arrays.asList(parameters).contains(null)) {
                    throw new NoSuchMethodException();
                }
                declaredByHook(hook, overloads.name(), parameters);
            } catch (NoSuchMethodException e) {
                missing.add(overloads.name() + "(" + String.join(", ", signature) + ")");
            }
        }
        return missing.isEmpty() ? null : hook.getName() + " does not override " + String.join("; ", missing);
    }

    private static void declaredByHook(Class<?> hook, String name, Class<?>[] parameters) throws NoSuchMethodException {
        for (Class<?> k = hook; k != null && !k.getName().startsWith("org.apache.hadoop."); k = k.getSuperclass()) {
            try {
                k.getDeclaredMethod(name, parameters);
                return;
            } catch (NoSuchMethodException e) {
                // its superclass may
            }
        }
        throw new NoSuchMethodException(name);
    }

    /** The class or primitive type, not initialised; null if this Hadoop has none. */
    private Class<?> load(String name) {
        Class<?> primitive = PRIMITIVES.get(name);
        if (primitive != null) {
            return primitive;
        }
        try {
            return Class.forName(name, false, hadoop);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
