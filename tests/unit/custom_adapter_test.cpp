// The custom adapter and the declared-knob helpers every adapter shares.
#include <gtest/gtest.h>

#include "adapters/custom_adapter.hpp"
#include "adapters/declared_knobs.hpp"
#include "routetune/error.hpp"

namespace routetune {
namespace {

Knob declared(std::string name, KnobType type, std::string argv, std::string env) {
    Knob knob;
    knob.name = std::move(name);
    knob.type = type;
    if (type == KnobType::Int) {
        knob.min = 1;
        knob.max = 256;
        knob.default_value = "16";
    } else if (type == KnobType::Enum) {
        knob.values = {"row", "col"};
        knob.default_value = "row";
    } else {
        knob.values = {"on", "off"};
        knob.default_value = "off";
    }
    knob.application.argv_template = std::move(argv);
    knob.application.env_name = std::move(env);
    return knob;
}

AdapterOptions custom_options() {
    AdapterOptions options;
    options.compiler = "";
    options.base_flags = {"-O2", "-DN=1024"};
    options.declared_knobs = {declared("-tile", KnobType::Int, "-DTILE={value}", ""),
                              declared("-layout", KnobType::Enum, "-DLAYOUT_{value}", "LAYOUT"),
                              declared("-threads", KnobType::Int, "", "OMP_NUM_THREADS")};
    return options;
}

TEST(CustomAdapter, CatalogIsTheDeclaredKnobs) {
    auto adapter = make_custom_adapter(custom_options());
    EXPECT_EQ(adapter->name(), "custom");
    Catalog catalog = adapter->discover();
    EXPECT_EQ(catalog.compiler.adapter, "custom");
    ASSERT_EQ(catalog.knobs().size(), 3u);
    EXPECT_EQ(catalog.knobs()[0].name, "-layout");
    EXPECT_EQ(catalog.knobs()[1].name, "-threads");
    EXPECT_EQ(catalog.knobs()[2].name, "-tile");
    EXPECT_TRUE(catalog.knobs()[2].has_tag("declared"));
    EXPECT_EQ(catalog.knobs()[2].application.argv_template, "-DTILE={value}");
}

TEST(CustomAdapter, AppliesArgvAfterBaseAndEnvironment) {
    auto adapter = make_custom_adapter(custom_options());
    Catalog catalog = adapter->discover();
    Route route;
    route.set("-tile", "32");
    route.set("-layout", "col");
    route.set("-threads", "8");
    AppliedRoute applied = adapter->apply(route, catalog);
    EXPECT_EQ(applied.flags, (std::vector<std::string>{"-O2", "-DN=1024", "-DLAYOUT_col", "-DTILE=32"}));
    EXPECT_EQ(applied.environment, (std::map<std::string, std::string>{{"LAYOUT", "col"}, {"OMP_NUM_THREADS", "8"}}));
}

TEST(CustomAdapter, DefaultRouteIsTheBaseFlags) {
    auto adapter = make_custom_adapter(custom_options());
    AppliedRoute applied = adapter->apply(Route(), adapter->discover());
    EXPECT_EQ(applied.flags, (std::vector<std::string>{"-O2", "-DN=1024"}));
    EXPECT_TRUE(applied.environment.empty());
}

TEST(DeclaredKnobs, SubstituteReplacesEveryPlaceholder) {
    EXPECT_EQ(substitute_value("-DTILE={value}", "16"), "-DTILE=16");
    EXPECT_EQ(substitute_value("-DA={value},B={value}", "x"), "-DA=x,B=x");
    EXPECT_EQ(substitute_value("--flag", "x"), "--flag");
    EXPECT_EQ(substitute_value("{value}", "a b"), "a b");
}

TEST(DeclaredKnobs, RejectsMalformedDeclarations) {
    EXPECT_THROW(validate_declared_knob(declared("tile", KnobType::Int, "-DT={value}", "")), UsageError);
    EXPECT_THROW(validate_declared_knob(declared("-tile", KnobType::Int, "", "")), UsageError);
    EXPECT_THROW(validate_declared_knob(declared("-tile", KnobType::Int, "-DTILE", "")), UsageError);
    EXPECT_THROW(validate_declared_knob(declared("-tile", KnobType::Int, "", "9TILE")), UsageError);
    Knob bad_default = declared("-tile", KnobType::Int, "-DT={value}", "");
    bad_default.default_value = "1000";
    EXPECT_THROW(validate_declared_knob(bad_default), UsageError);
    Knob no_values = declared("-layout", KnobType::Enum, "-DL={value}", "");
    no_values.values.clear();
    EXPECT_THROW(validate_declared_knob(no_values), UsageError);
    EXPECT_NO_THROW(validate_declared_knob(declared("-tile", KnobType::Int, "-DT={value}", "TILE")));
}

TEST(DeclaredKnobs, DuplicateDeclarationIsAnError) {
    Catalog catalog;
    auto knob = declared("-tile", KnobType::Int, "-DT={value}", "");
    try {
        add_declared_knobs(catalog, {knob, knob});
        FAIL() << "expected UsageError";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("'-tile' is declared twice"), std::string::npos) << e.what();
    }
}

TEST(DeclaredKnobs, DeclarationReplacesADiscoveredKnob) {
    Catalog catalog;
    Knob discovered;
    discovered.name = "-maxrregcount";
    discovered.type = KnobType::Int;
    discovered.min = 16;
    discovered.max = 255;
    catalog.add(discovered);
    Knob narrower = declared("-maxrregcount", KnobType::Int, "-maxrregcount={value}", "");
    narrower.min = 32;
    narrower.max = 128;
    narrower.default_value = "64";
    add_declared_knobs(catalog, {narrower});
    ASSERT_EQ(catalog.knobs().size(), 1u);
    EXPECT_EQ(catalog.find("-maxrregcount")->min, 32);
    EXPECT_TRUE(is_declared_knob(*catalog.find("-maxrregcount")));
}

}  // namespace
}  // namespace routetune
