package dev.pysandbox.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

/**
 * {@link ImportPolicy#refusal} as the prelude calls it, {@code import_rule(name, fromlist)}: the refusal's text,
 * or {@code ""} when the import is allowed. The prelude's import guard and {@code validate_code} both ask it,
 * so the rule is written once. It reaches nothing but the policy and the names of the installed packages;
 * called with anything but a string and a sequence of strings (only the guest could), it refuses rather than
 * throw a host exception into the guest.
 */
final class ImportRule implements ProxyExecutable {
    private final ImportPolicy policy;
    /** The top-level modules of the package generation the context shows, whose refusals name imports.allow. */
    private final Set<String> installed;

    ImportRule(ImportPolicy policy, Set<String> installed) {
        this.policy = policy;
        this.installed = Set.copyOf(installed);
    }

    @Override
    public Object execute(Value... arguments) {
        if (arguments.length != 2 || !arguments[0].isString() || !arguments[1].hasArrayElements()) {
            return "import refused: the import rule takes a module name and a list of names";
        }
        List<String> fromlist = new ArrayList<>();
        for (long i = 0; i < arguments[1].getArraySize(); i++) {
            Value name = arguments[1].getArrayElement(i);
            if (!name.isString()) {
                return "import refused: the import rule takes a module name and a list of names";
            }
            fromlist.add(name.asString());
        }
        return policy.refusal(arguments[0].asString(), fromlist, installed).orElse("");
    }
}
