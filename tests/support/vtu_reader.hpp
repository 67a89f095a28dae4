#pragma once
// A .vtu read back with VTK's XML reader, for the tests of Catena's VTK output (results and scene).
#include <gtest/gtest.h>
#include <vtkNew.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <filesystem>

namespace catena::testing {

/// The grid in `file`; a test failure when VTK reports an error or the grid has no point.
inline vtkSmartPointer<vtkUnstructuredGrid> read_vtu(const std::filesystem::path& file) {
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0) << file;
  vtkSmartPointer<vtkUnstructuredGrid> grid = reader->GetOutput();
  EXPECT_GT(grid->GetNumberOfPoints(), 0) << file;
  return grid;
}

}  // namespace catena::testing
