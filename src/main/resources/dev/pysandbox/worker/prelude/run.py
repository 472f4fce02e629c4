# How user code is run: in __main__, with CPython's exit semantics, and reported as one outcome.
# One of the prelude's files: it defines its install function, which prelude.py takes and calls (Prelude.java).

def install_run(sys, main_globals, strict, check_strict, Context, any_exit, exit_status, result_now, describe_result,
                report_exception, flush, installing, namespace):
    """Returns run(source, filename, result_limit, module, inputs, message_limit)."""

    def run(source, filename, result_limit, module=None, inputs='{}', message_limit=4096):
        """Runs user code in __main__: the module the worker parsed from it if given, else compiled here.
        inputs: the call's `inputs` argument as JSON text, read by context.inputs.
        Returns namespace(exit_code, error_message, result): result is describe_result's; the modules this
        call found missing that the server will install are in `installing`. error_message is cut here, to
        one character more than message_limit: the worker's answer budget marks the cut, and a 40 MB message
        never becomes a host string."""
        installing.clear()
        # The context starts with an empty sys.argv, where CPython gives `python3 -c` ['-c'] and a script its
        # name: unittest.main() and argparse read their program's name there, and failed on the empty list.
        if not sys.argv:
            sys.argv.append('-c' if filename == '<string>' else filename)
        def short(message):
            return message[:message_limit + 1] if message is not None else None
        def outcome(exit_code, error_message, result):
            return namespace(exit_code=exit_code, error_message=error_message, result=result)
        main_globals['context'] = Context(inputs)
        before = result_now()
        code = None
        try:
            try:
                if strict:
                    check_strict(source, filename)
                if module is None:
                    code = compile(source, filename, 'exec')
                    exec(code, main_globals)
                else:
                    module()
            except any_exit as e:
                status, message = exit_status(e)
                return outcome(status, short(message), describe_result(result_limit, before, code))
            except BaseException as e:
                # Skip this function's own frame, so the traceback starts at the user's code.
                tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
                return outcome(1, short(report_exception(e, tb, source, filename)),
                               describe_result(result_limit, before, code))
            return outcome(0, None, describe_result(result_limit, before, code))
        except BaseException as e:
            # Reporting itself failed: the guest broke something the report needs (json, say). Say so
            # plainly instead of letting it look like a sandbox refusal.
            return outcome(1, 'The result could not be reported: %s' % type(e).__name__, None)
        finally:
            flush()

    return run
