// The extension module `routetune._core` of the Python package (python/routetune/): a thin
// pybind11 binding that hands Python what the library already computes, as text the Python
// side turns into objects. It reads only; tuning and every lock decision run the routetune
// executable in a child process (python/routetune/_cli.py says why). Library calls run with the
// GIL released; the library's error types become the package's exceptions of the same meaning
// (routetune.errors), so Python sees BadInput where the command line would exit 2.
#include <pybind11/pybind11.h>

#include <string>

#include "report/render.hpp"
#include "routetune/error.hpp"
#include "routetune/spec.hpp"
#include "study/study_runner.hpp"

namespace py = pybind11;

namespace {

// Raises the routetune.errors class named class_name with message.
void raise_package_error(const char* class_name, const char* message) {
    py::object error = py::module_::import("routetune.errors").attr(class_name);
    PyErr_SetObject(error.ptr(), py::str(message).ptr());
}

void translate_library_errors(std::exception_ptr thrown) {
    try {
        if (thrown) std::rethrow_exception(thrown);
    } catch (const routetune::UsageError& e) {
        raise_package_error("BadInput", e.what());
    } catch (const routetune::FingerprintMismatch& e) {
        raise_package_error("StaleLock", e.what());
    } catch (const routetune::Interrupted& e) {
        raise_package_error("Interrupted", e.what());
    } catch (const std::exception& e) {
        raise_package_error("Failure", e.what());
    }
}

std::string study_report(const std::string& store, const std::string& study, const std::string& format) {
    return routetune::render_stored_study(routetune::StoreLocation(store, study), format);
}

std::string default_store(const std::string& spec_file, const std::string& study) {
    routetune::Spec spec = routetune::load_spec(spec_file);
    routetune::TuneOptions options;
    options.study = study;
    return routetune::study_paths(spec, options).cache.string();
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "routetune's C++ library, read-only: study reports as the command line prints them";
    py::register_exception_translator(translate_library_errors);
    m.attr("version") = ROUTETUNE_VERSION;
    m.def("study_report", &study_report, py::arg("store"), py::arg("study") = "", py::arg("format") = "json",
          py::call_guard<py::gil_scoped_release>(),
          "The study in store (a .sqlite path or a postgresql:// URL; study: its name where the store holds "
          "several) in format (json, table, markdown, html): what `routetune report --format FORMAT` prints.");
    m.def("default_store", &default_store, py::arg("spec"), py::arg("study") = "",
          py::call_guard<py::gil_scoped_release>(),
          "The SQLite store `routetune tune SPEC` uses without --cache or --store (study: --study).");
}
