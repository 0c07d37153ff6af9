package org.iq80.leveldb;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Compares the public surface of a reference class with ours, by type names only (the two come
 * from different class loaders), and lists every difference that breaks binary or source
 * compatibility for code written against the reference.
 *
 * <p>What counts as a break: a missing type, member or constructor; a different kind, superclass,
 * interface, return type, field type or generic signature; a changed static-ness or varargs-ness;
 * a different set of declared exceptions (more checked exceptions break callers, fewer break
 * their {@code catch} blocks); a class, method or constructor that became final, abstract or
 * less visible; a constant with another value; and, for types users implement, a new abstract
 * method.
 */
final class SignatureComparator {
    private final List<String> problems = new ArrayList<>();
    private int types;
    private int methods;
    private int constructors;
    private int fields;

    List<String> problems() {
        return problems;
    }

    String summary() {
        return types + " types, " + constructors + " constructors, " + methods + " methods, "
                + fields + " fields compared; " + problems.size() + " problems";
    }

    void compare(Class<?> ref, Class<?> ours) {
        types++;
        String name = ref.getName();
        check(kind(ref).equals(kind(ours)), name, "is a " + kind(ours) + ", was a " + kind(ref));
        checkModifiers(name, ref.getModifiers(), ours.getModifiers());
        check(typeName(ref.getSuperclass()).equals(typeName(ours.getSuperclass())), name,
                "superclass " + typeName(ours.getSuperclass()) + ", was "
                        + typeName(ref.getSuperclass()));
        check(typeName(ref.getGenericSuperclass()).equals(typeName(ours.getGenericSuperclass())),
                name, "generic superclass " + typeName(ours.getGenericSuperclass()) + ", was "
                        + typeName(ref.getGenericSuperclass()));
        check(typeNames(ref.getGenericInterfaces()).equals(typeNames(ours.getGenericInterfaces())),
                name, "interfaces " + typeNames(ours.getGenericInterfaces()) + ", were "
                        + typeNames(ref.getGenericInterfaces()));
        for (Constructor<?> refConstructor : ref.getDeclaredConstructors()) {
            if (isApi(refConstructor.getModifiers())) {
                constructors++;
                compareExecutable(name, refConstructor, find(ours.getDeclaredConstructors(),
                        refConstructor));
            }
        }
        for (Method refMethod : ref.getDeclaredMethods()) {
            if (isApi(refMethod.getModifiers())) {
                methods++;
                Method ourMethod = find(ours.getDeclaredMethods(), refMethod);
                compareExecutable(name, refMethod, ourMethod);
                if (ourMethod != null) {
                    compareMethod(name, refMethod, ourMethod);
                }
            }
        }
        for (Field refField : ref.getDeclaredFields()) {
            if (isApi(refField.getModifiers())) {
                fields++;
                compareField(name, refField, ours);
            }
        }
        checkNoNewAbstractMethods(ref, ours);
    }

    private void compareExecutable(String owner, Executable ref, Executable ours) {
        String what = owner + "." + describe(ref);
        if (ours == null) {
            problems.add(what + ": missing");
            return;
        }
        checkModifiers(what, ref.getModifiers(), ours.getModifiers());
        check(ref.isVarArgs() == ours.isVarArgs(), what, "varargs changed");
        check(exceptionNames(ref).equals(exceptionNames(ours)), what,
                "throws " + exceptionNames(ours) + ", declared " + exceptionNames(ref));
        if (!ref.isSynthetic()) {
            check(typeNames(ref.getGenericParameterTypes())
                            .equals(typeNames(ours.getGenericParameterTypes())), what,
                    "generic parameters " + typeNames(ours.getGenericParameterTypes())
                            + ", were " + typeNames(ref.getGenericParameterTypes()));
        }
    }

    private void compareMethod(String owner, Method ref, Method ours) {
        String what = owner + "." + describe(ref);
        check(typeName(ref.getReturnType()).equals(typeName(ours.getReturnType())), what,
                "returns " + typeName(ours.getReturnType()) + ", returned "
                        + typeName(ref.getReturnType()));
        if (!ref.isSynthetic()) {
            check(typeName(ref.getGenericReturnType())
                            .equals(typeName(ours.getGenericReturnType())), what,
                    "generic return type " + typeName(ours.getGenericReturnType()) + ", was "
                            + typeName(ref.getGenericReturnType()));
        }
        check(String.valueOf(ref.getDefaultValue()).equals(String.valueOf(ours.getDefaultValue())),
                what, "annotation default changed");
    }

    private void compareField(String owner, Field ref, Class<?> oursClass) {
        String what = owner + "." + ref.getName();
        Field ours;
        try {
            ours = oursClass.getDeclaredField(ref.getName());
        } catch (NoSuchFieldException e) {
            problems.add(what + ": missing");
            return;
        }
        check(typeName(ref.getGenericType()).equals(typeName(ours.getGenericType())), what,
                "type " + typeName(ours.getGenericType()) + ", was "
                        + typeName(ref.getGenericType()));
        check(Modifier.isStatic(ref.getModifiers()) == Modifier.isStatic(ours.getModifiers()),
                what, "static-ness changed");
        check(Modifier.isFinal(ref.getModifiers()) == Modifier.isFinal(ours.getModifiers()), what,
                "final-ness changed");
        check(visibility(ours.getModifiers()) >= visibility(ref.getModifiers()), what,
                "less visible");
        check(ref.isEnumConstant() == ours.isEnumConstant(), what, "enum-constant-ness changed");
        boolean constant = Modifier.isStatic(ref.getModifiers())
                && Modifier.isFinal(ref.getModifiers());
        if (constant && Modifier.isPublic(ours.getModifiers())) {
            String refValue = valueOf(ref);
            String ourValue = valueOf(ours);
            check(refValue.equals(ourValue), what, "value " + ourValue + ", was " + refValue);
        }
    }

    /**
     * A type users may implement or extend must not gain abstract methods: implementations
     * compiled against the reference would fail with AbstractMethodError (binary) or no longer
     * compile (source). Inherited methods count, so redeclaring one is not a new method.
     */
    private void checkNoNewAbstractMethods(Class<?> ref, Class<?> ours) {
        if (Modifier.isFinal(ours.getModifiers()) || ours.isEnum()) {
            return;
        }
        Set<String> refAbstract = new TreeSet<>();
        Set<String> refAll = new TreeSet<>();
        for (Method m : ref.getMethods()) {
            refAll.add(describe(m));
            if (Modifier.isAbstract(m.getModifiers())) {
                refAbstract.add(describe(m));
            }
        }
        for (Method m : ours.getMethods()) {
            if (Modifier.isAbstract(m.getModifiers()) && !refAbstract.contains(describe(m))) {
                String change = refAll.contains(describe(m))
                        ? "became abstract" : "new abstract method";
                problems.add(ref.getName() + "." + describe(m) + ": " + change);
            }
        }
    }

    private void checkModifiers(String what, int ref, int ours) {
        check(Modifier.isStatic(ref) == Modifier.isStatic(ours), what, "static-ness changed");
        check(Modifier.isFinal(ref) || !Modifier.isFinal(ours), what, "became final");
        check(Modifier.isAbstract(ref) || !Modifier.isAbstract(ours), what, "became abstract");
        check(visibility(ours) >= visibility(ref), what, "less visible");
    }

    private static boolean isApi(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static int visibility(int modifiers) {
        if (Modifier.isPublic(modifiers)) {
            return 3;
        }
        if (Modifier.isProtected(modifiers)) {
            return 2;
        }
        return Modifier.isPrivate(modifiers) ? 0 : 1;
    }

    private static <E extends Executable> E find(E[] candidates, Executable wanted) {
        for (E candidate : candidates) {
            if (describe(candidate).equals(describe(wanted))) {
                return candidate;
            }
        }
        return null;
    }

    /** Name and erased parameter types, e.g. {@code get(byte[],org.iq80.leveldb.ReadOptions)}. */
    static String describe(Executable executable) {
        String name = executable instanceof Constructor ? "<init>" : executable.getName();
        String returns = executable instanceof Method
                ? ":" + typeName(((Method) executable).getReturnType()) : "";
        return name + "(" + String.join(",", typeNames(executable.getParameterTypes())) + ")"
                + returns;
    }

    private static String kind(Class<?> type) {
        if (type.isAnnotation()) {
            return "annotation";
        }
        if (type.isInterface()) {
            return "interface";
        }
        return type.isEnum() ? "enum" : "class";
    }

    private static String valueOf(Field field) {
        try {
            field.setAccessible(true);
            return String.valueOf(field.get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "<unreadable: " + e + ">";
        }
    }

    private static String typeName(Type type) {
        return type == null ? "none" : type.getTypeName();
    }

    private static List<String> typeNames(Type[] types) {
        return Arrays.stream(types).map(SignatureComparator::typeName)
                .collect(Collectors.toList());
    }

    private static Set<String> exceptionNames(Executable executable) {
        return Arrays.stream(executable.getExceptionTypes()).map(SignatureComparator::typeName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private void check(boolean ok, String what, String problem) {
        if (!ok) {
            problems.add(what + ": " + problem);
        }
    }
}
