// Commands parsed with CLI11 from their declarations (args.hpp), and their --help text made
// from the same declarations. CLI11 reads the declared options (`--name value`,
// `--name=value`, flags, -h/--help); everything else it leaves in order, where positionals
// and an open command's `--NAME VALUE` pairs are told apart, and any other option refused.
#include "args.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>

#include "../../datagen/base/printable.hpp"

namespace ladder::cli {
namespace {

constexpr std::size_t kWidth = 96;  // where usage lines wrap

// "--out FILE", "--json": an option as usage and the option list show it.
std::string spelt(const OptionSpec& o) {
  return "--" + o.name + (o.value.empty() ? "" : " " + o.value);
}

std::string usage(const Command& c) {
  if (!c.forms.empty()) {
    std::string out;
    for (const std::string& f : c.forms) out += (out.empty() ? "usage: " : "       ") + f + "\n";
    return out;
  }
  std::vector<std::string> words = c.positionals;
  for (const OptionSpec& o : c.options) words.push_back(o.required ? spelt(o) : "[" + spelt(o) + "]");
  if (!c.open.name.empty()) words.push_back("[" + spelt(c.open) + " ...]");
  const std::string head = "usage: ladder " + c.name;
  std::string out = head, line = head;
  for (const std::string& w : words) {
    if (line.size() + 1 + w.size() > kWidth) {
      line = std::string(head.size(), ' ');
      out += "\n" + line;
    }
    line += " " + w;
    out += " " + w;
  }
  return out + "\n";
}

std::string help_text(const Command& c) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const OptionSpec& o : c.options) rows.emplace_back(spelt(o), o.help);
  if (!c.open.name.empty()) rows.emplace_back(spelt(c.open), c.open.help);
  rows.emplace_back("-h, --help", "show this help and exit");
  std::size_t width = 0;
  for (const auto& [left, help] : rows) width = std::max(width, left.size());
  std::string out = usage(c) + c.about + "\noptions:\n";
  for (const auto& [left, help] : rows) out += fmt::format("  {:<{}}  {}\n", left, width, help);
  if (c.more_help) out += "\n" + c.more_help();
  return out;
}

// What ends every usage error.
std::string see_help(const Command& c) { return " (see `ladder " + c.name + " --help`)"; }

// `--NAME` as an open command takes it: NAME of letters, digits, _ and - (a parameter's name,
// safe to show in a message).
bool open_name(const std::string& word) {
  return word.size() > 2 && word.rfind("--", 0) == 0 &&
         std::all_of(word.begin() + 2, word.end(),
                     [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-'; });
}

// `--NAME=` with nothing after the '=', for an option that takes a value (a declared one or an
// open command's): refused, as CLI11 would take the next word as the value (`--out= --quiet`
// writing to a file named "--quiet"). A flag given so is left to CLI11 ("takes no value").
void refuse_empty_values(const Command& c, const Args& args) {
  for (const std::string& a : args) {
    if (a == "--") return;  // only positionals follow
    if (a.size() < 4 || a.rfind("--", 0) != 0 || a.back() != '=') continue;
    const std::string name = a.substr(2, a.size() - 3);
    const auto it = std::find_if(c.options.begin(), c.options.end(), [&](const OptionSpec& o) { return o.name == name; });
    const bool open = it == c.options.end() && !c.open.name.empty() && open_name("--" + name);
    if ((it != c.options.end() && !it->value.empty()) || open)
      throw InputError("option --" + name + " needs a value (" + (open ? c.open.value : it->value) + ")" +
                       see_help(c));
  }
}

// The words CLI11 did not take, in order: positionals, unknown options, and an open command's
// `--NAME VALUE` / `--NAME=VALUE`; after `--`, only positionals.
void take_rest(const Command& c, const std::vector<std::string>& rest, Parsed& p) {
  bool only_positionals = false;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (only_positionals || a.size() < 2 || a[0] != '-') {
      p.positional.push_back(a);
    } else if (a == "--") {
      only_positionals = true;
    } else if (c.open.name.empty() || !open_name(a.substr(0, a.find('=')))) {
      throw InputError("unknown option " + printable(a.substr(0, a.find('='))) + see_help(c));
    } else if (const auto eq = a.find('='); eq != std::string::npos) {
      p.options[a.substr(2, eq - 2)] = a.substr(eq + 1);
    } else if (i + 1 < rest.size()) {
      p.options[a.substr(2)] = rest[++i];
    } else {
      throw InputError("option " + a + " needs a value (" + c.open.value + ")" + see_help(c));
    }
  }
}

// CLI11's own words for the two mistakes it finds in a declared option ("--out: 1 required
// FILE missing", "quiet was given a disallowed flag override") in ladder's; `fallback` (its
// message) for anything else.
std::string mismatch(const Command& c, const Args& args, const std::string& fallback) {
  for (const OptionSpec& o : c.options) {
    const std::string opt = "--" + o.name;
    // A missing value can only be at the end: CLI11 takes whatever word follows as the value
    // (`--NAME=` with an empty value is refused before CLI11 sees it).
    if (!o.value.empty() && !args.empty() && args.back() == opt)
      return "option " + opt + " needs a value (" + o.value + ")";
    if (o.value.empty() &&
        std::any_of(args.begin(), args.end(), [&](const std::string& a) { return a.rfind(opt + "=", 0) == 0; }))
      return "option " + opt + " takes no value";
  }
  return fallback;
}

// Each declared option as CLI11 reads it: a value, or a flag that takes none.
std::vector<CLI::Option*> declare(CLI::App& app, const Command& c) {
  std::vector<CLI::Option*> declared;
  for (const OptionSpec& o : c.options) {
    CLI::Option* opt = o.value.empty() ? app.add_flag("--" + o.name)->disable_flag_override()
                                       : app.add_option("--" + o.name)->type_name(o.value);
    declared.push_back(opt->description(o.help)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast));
  }
  return declared;
}

// What CLI11 found of the declared options, into `p`; a required one missing is refused.
void take_declared(const Command& c, const std::vector<CLI::Option*>& declared, Parsed& p) {
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const OptionSpec& o = c.options[i];
    if (declared[i]->count() == 0) {
      if (o.required) throw InputError(c.name + " needs " + spelt(o));
    } else if (o.value.empty()) {
      p.flags.insert(o.name);
    } else {
      p.options[o.name] = declared[i]->results().back();
    }
  }
}

}  // namespace

int execute(const Command& c, const Args& args) {
  CLI::App app{c.summary, "ladder " + c.name};
  app.allow_extras();  // take_rest() judges what CLI11 does not know
  const std::vector<CLI::Option*> declared = declare(app, c);
  refuse_empty_values(c, args);
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));  // CLI11 pops from the back
  } catch (const CLI::CallForHelp&) {
    fmt::print("{}", help_text(c));
    return 0;
  } catch (const CLI::ParseError& e) {
    const std::string said = printable(e.what(), 200);
    throw InputError((dynamic_cast<const CLI::ArgumentMismatch*>(&e) ? mismatch(c, args, said) : said) +
                     see_help(c));
  }
  Parsed p;
  take_rest(c, app.remaining(), p);
  take_declared(c, declared, p);
  return c.body(p);
}

std::string overview(const std::vector<const Command*>& commands) {
  std::size_t width = 0;
  for (const Command* c : commands) width = std::max(width, c->name.size());
  std::string out =
      "usage: ladder COMMAND [ARGUMENTS] [OPTIONS]\n"
      "Runs, validates and times every optimisation step of published GPU case studies.\n"
      "\ncommands:\n";
  for (const Command* c : commands) out += fmt::format("  {:<{}}  {}\n", c->name, width, c->summary);
  return out +
         "\n`ladder COMMAND --help` shows a command's arguments and options;\n"
         "`ladder --version` prints the version.\n";
}

}  // namespace ladder::cli
