"""Usage errors (an unknown option, a missing argument, a value outside its choices) said from the message
catalogue, in the command's language, like every other bad input: one line on standard error, exit 2.

Click writes these sentences in English only (its gettext domain has no German catalogue), and typer draws them in
a panel with an English "Usage:" line. The group below catches click's usage errors where they are raised (the
group's own arguments, the command's name, the command's arguments) and says them from their structured fields
(the option, the parameter, its type), not from click's English text. The language is the command line's
`--lang` when it names a catalogue language, else the command's default `--lang`, else English (the commands
without `--lang` speak English); crewkg's own errors (a mistyped command) are German, the default of its commands."""

from difflib import get_close_matches

import typer
from typer.core import TyperGroup

from crewkg.messages.catalogue import LANGUAGES, say

try:  # typer 0.2x vendors click as typer._click; its errors are that copy's classes, not the click package's
    from typer._click import core, exceptions
except ImportError:  # pragma: no cover - an older typer uses the click package
    from click import core, exceptions

#: ctx.meta key of the whole command line as the group received it (for --lang and the value an option was given)
_ARGS = "crewkg.args"


class CatalogueGroup(TyperGroup):
    """The crewkg command group: click's usage errors said from the catalogue."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            ctx = super().make_context(info_name, list(args), parent=parent, **extra)
        except exceptions.UsageError as exc:
            _usage_failed(exc, list(args), self, info_name or "crewkg")
        ctx.meta[_ARGS] = list(args)
        return ctx

    #: the commands in `crewkg --help` in the order a user meets them: one person and their career, a vessel, planning
    #: for many, then the rest
    ORDER = ("check", "explain", "plan", "timeline", "crew", "programme", "cohort", "paths", "test", "export", "sparql",
             "serve", "docs")

    def list_commands(self, ctx):
        names = list(super().list_commands(ctx))
        return sorted(names, key=lambda n: (self.ORDER.index(n) if n in self.ORDER else len(self.ORDER), names.index(n)))

    def resolve_command(self, ctx, args):
        name = args[0] if args else ""
        if (self.get_command(ctx, name) is None and not name.startswith("-") and not ctx.resilient_parsing):
            close = get_close_matches(name, list(self.commands))
            _say_failed(_language(None, ctx.meta.get(_ARGS, args)), "usage.no_such_command",
                        ctx.command_path, close, name=name)
        command = self.get_command(ctx, name)
        if command is not None and not ctx.resilient_parsing:
            _option_as_value(command, args[1:], ctx.meta.get(_ARGS, args), f"{ctx.command_path} {name}")
            _read_by_crewkg(command)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except exceptions.NoArgsIsHelpError:
            raise
        except exceptions.UsageError as exc:
            # the parser's own errors carry no context: they belong to the command being parsed
            name = ctx.invoked_subcommand
            command = self.get_command(ctx, name) if name else None
            path = f"{ctx.command_path} {name}" if command is not None else ctx.command_path
            _usage_failed(exc, ctx.meta.get(_ARGS, []), command, path)


def _option_as_value(command: core.Command, args: list[str], line: list[str], path: str) -> None:
    """An option that takes a value followed by another of the command's options (`--roster --lang en`): click would
    take `--lang` as the value and then complain about `en`; the user forgot the value."""
    options = {opt: param for param in command.params for opt in getattr(param, "opts", ())
               if getattr(param, "param_type_name", "") == "option"}
    for arg in args:  # `--roster=`: an empty value, which a path option would read as the current folder
        if arg == "--":
            break
        name, eq, value = arg.partition("=")
        if eq and not value and name in options and not getattr(options[name], "is_flag", False):
            _say_failed(_language(command, line), "usage.needs_value", path, [], option=name)
    for i, arg in enumerate(args[:-1]):
        if arg == "--":
            return
        param = options.get(arg)
        following = args[i + 1].split("=", 1)[0]
        if param is not None and not getattr(param, "is_flag", False) and following in options:
            _say_failed(_language(command, line), "usage.needs_value_before", path, [], option=arg, following=following)


def _read_by_crewkg(command: core.Command) -> None:
    """A path is checked by crewkg when it reads it, not by click beforehand: typer's paths ask click to test
    that they are readable, and click's refusal reached the user as 'expected a value of the kind path', without the
    file or the reason (issue 44). crewkg's reading names both ('p.yaml: … (permission denied)')."""
    for param in command.params:
        if getattr(param.type, "name", "") == "path" and hasattr(param.type, "readable"):
            param.type.readable = False


def _usage_failed(exc: exceptions.UsageError, args: list[str], command: core.Command | None, path: str):
    if isinstance(exc, exceptions.NoArgsIsHelpError):
        raise exc
    if exc.ctx is not None:
        command, path = exc.ctx.command, exc.ctx.command_path
    lang = _language(command, args)
    key, fields, close = _what(exc, command, args, lang)
    _say_failed(lang, key, path, close, **fields)


def _say_failed(lang: str, key: str, path: str, close: list[str], **fields: object):
    message = say(lang, key, **fields)
    if close:
        message += say(lang, "usage.did_you_mean", names=", ".join(close))
    if " " in path:  # a command's error names the command; the group's own is said as crewkg's
        message = say(lang, "usage.in_command", command=path, message=message)
    typer.echo(say(lang, "error.line", message=message), err=True)
    typer.echo(say(lang, "usage.help", command=path), err=True)
    raise typer.Exit(2)


def _language(command: core.Command | None, args: list[str]) -> str:
    """The `--lang` the command line gives (its last one), if it names a catalogue language; else the command's
    default; else English."""
    given = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            given = args[i + 1]
        elif arg.startswith("--lang="):
            given = arg.split("=", 1)[1]
    if given in LANGUAGES:
        return given
    if command is None or isinstance(command, TyperGroup):  # crewkg itself: its default language, German
        return "de"
    for param in command.params:
        if param.name == "lang" and param.default is not None:
            return str(getattr(param.default, "value", param.default))
    return "en"


def _param_name(param: core.Parameter) -> str:
    if param.param_type_name == "option":
        return max(param.opts, key=len)
    return (param.human_readable_name or param.name or "").upper()


def _given(param: core.Parameter, args: list[str]) -> str | None:
    """The value the command line gave an option (its last), for the message."""
    found = None
    for i, arg in enumerate(args):
        for opt in getattr(param, "opts", ()):
            if arg == opt and i + 1 < len(args):
                found = args[i + 1]
            elif arg.startswith(opt + "="):
                found = arg.split("=", 1)[1]
    return found


def _expected(param: core.Parameter, lang: str) -> str:
    """What the parameter's type takes, by the type's name (typer's choice type is not click's Choice class)."""
    kind = param.type
    choices = getattr(kind, "choices", None)
    if choices:
        return say(lang, "usage.expected.choice", choices=", ".join(str(getattr(c, "value", c)) for c in choices))
    key = {"integer": "usage.expected.integer", "int": "usage.expected.integer", "float": "usage.expected.number",
           "boolean": "usage.expected.boolean", "bool": "usage.expected.boolean"}
    if kind.name in key:
        return say(lang, key[kind.name])
    return say(lang, "usage.expected.other", kind=kind.name)


def _what(exc: exceptions.UsageError, command: core.Command | None, args: list[str], lang: str):
    """The catalogue key, its fields and the close names of one usage error."""
    if isinstance(exc, exceptions.NoSuchOption):
        return "usage.no_such_option", {"option": exc.option_name}, list(exc.possibilities or [])
    if isinstance(exc, exceptions.BadOptionUsage):
        option = next((p for p in command.params if exc.option_name in getattr(p, "opts", ())), None) if command else None
        takes_value = option is not None and not getattr(option, "is_flag", False)
        return ("usage.needs_value" if takes_value else "usage.takes_no_value"), {"option": exc.option_name}, []
    if isinstance(exc, exceptions.MissingParameter) and exc.param is not None:
        key = "usage.missing_option" if exc.param.param_type_name == "option" else "usage.missing_argument"
        return key, {"name": _param_name(exc.param)}, []
    if isinstance(exc, exceptions.BadParameter) and exc.param is not None:
        given = _given(exc.param, args)
        fields = {"name": _param_name(exc.param), "expected": _expected(exc.param, lang)}
        if given is None:
            return "usage.bad_value", fields, []
        return "usage.bad_value_given", {**fields, "value": given}, []
    text = exc.format_message()
    if text.startswith("Got unexpected extra argument"):
        extra = text[text.rfind("(") + 1:text.rfind(")")]
        return "usage.extra_arguments", {"arguments": extra}, []
    if text.startswith("Missing command"):
        return "usage.missing_command", {}, []
    return "usage.other", {"message": text}, []
